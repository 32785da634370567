# Keeps the tests that take the wgpu adapter fixture: the ones that run kernels on the GPU.
def pytest_collection_modifyitems(config, items):
    kept = [item for item in items if "adapter" in getattr(item, "fixturenames", ())]
    config.hook.pytest_deselected(items=[item for item in items if item not in kept])
    items[:] = kept
