"""Child process: asks the Vulkan loader directly for cooperative matrix properties (ctypes, no bindings).

Prints one JSON object: per physical device, its name, driver version and
the VK_KHR_cooperative_matrix list, plus VK_NV_cooperative_matrix2's
flexible-dimension list where the driver has it. Run through
coop_lsp.devices.live, which applies a timeout: a broken driver may hang.
"""

from __future__ import annotations

import ctypes
import ctypes.util
import json
import sys

COMPONENT_TYPES = {0: "f16", 1: "f32", 2: "f64", 3: "i8", 4: "i16", 5: "i32", 6: "i64", 7: "u8", 8: "u16", 9: "u32",
                   10: "u64", 1000141000: "bf16", 1000491002: "e4m3", 1000491003: "e5m2"}
SCOPES = {1: "device", 2: "workgroup", 3: "subgroup", 5: "queue_family"}

_COOPERATIVE_MATRIX_PROPERTIES_KHR = 1000506001
_COOPERATIVE_MATRIX_FLEXIBLE_DIMENSIONS_PROPERTIES_NV = 1000593001


class _ApplicationInfo(ctypes.Structure):
    _fields_ = [("sType", ctypes.c_uint32), ("pNext", ctypes.c_void_p), ("pApplicationName", ctypes.c_char_p),
                ("applicationVersion", ctypes.c_uint32), ("pEngineName", ctypes.c_char_p),
                ("engineVersion", ctypes.c_uint32), ("apiVersion", ctypes.c_uint32)]


class _InstanceCreateInfo(ctypes.Structure):
    _fields_ = [("sType", ctypes.c_uint32), ("pNext", ctypes.c_void_p), ("flags", ctypes.c_uint32),
                ("pApplicationInfo", ctypes.POINTER(_ApplicationInfo)), ("enabledLayerCount", ctypes.c_uint32),
                ("ppEnabledLayerNames", ctypes.c_void_p), ("enabledExtensionCount", ctypes.c_uint32),
                ("ppEnabledExtensionNames", ctypes.c_void_p)]


class _CooperativeMatrixProperties(ctypes.Structure):
    _fields_ = [("sType", ctypes.c_uint32), ("pNext", ctypes.c_void_p), ("MSize", ctypes.c_uint32),
                ("NSize", ctypes.c_uint32), ("KSize", ctypes.c_uint32), ("AType", ctypes.c_uint32),
                ("BType", ctypes.c_uint32), ("CType", ctypes.c_uint32), ("ResultType", ctypes.c_uint32),
                ("saturatingAccumulation", ctypes.c_uint32), ("scope", ctypes.c_uint32)]


class _FlexibleDimensionsProperties(ctypes.Structure):
    _fields_ = [("sType", ctypes.c_uint32), ("pNext", ctypes.c_void_p), ("MGranularity", ctypes.c_uint32),
                ("NGranularity", ctypes.c_uint32), ("KGranularity", ctypes.c_uint32), ("AType", ctypes.c_uint32),
                ("BType", ctypes.c_uint32), ("CType", ctypes.c_uint32), ("ResultType", ctypes.c_uint32),
                ("saturatingAccumulation", ctypes.c_uint32), ("scope", ctypes.c_uint32),
                ("workgroupInvocations", ctypes.c_uint32)]


def _load_vulkan():
    for name in ("libvulkan.so.1", ctypes.util.find_library("vulkan"), "libvulkan.so"):
        if name:
            try:
                return ctypes.CDLL(name)
            except OSError:
                continue
    return None


def _enumerate(function, device, structure, s_type):
    count = ctypes.c_uint32(0)
    if function(device, ctypes.byref(count), None) != 0 or count.value == 0:
        return []
    items = (structure * count.value)()
    for item in items:
        item.sType = s_type
    if function(device, ctypes.byref(count), items) != 0:
        return []
    return list(items[: count.value])


def query() -> dict:
    vulkan = _load_vulkan()
    if vulkan is None:
        return {"available": False, "reason": "no Vulkan loader (libvulkan.so.1) on this machine"}
    get_proc = vulkan.vkGetInstanceProcAddr
    get_proc.restype = ctypes.c_void_p
    get_proc.argtypes = [ctypes.c_void_p, ctypes.c_char_p]
    app = _ApplicationInfo(0, None, b"coop-lsp", 1, b"coop-lsp", 1, (1 << 22) | (3 << 12))
    info = _InstanceCreateInfo(1, None, 0, ctypes.pointer(app), 0, None, 0, None)
    instance = ctypes.c_void_p()
    create = ctypes.CFUNCTYPE(ctypes.c_int32, ctypes.c_void_p, ctypes.c_void_p, ctypes.c_void_p)(
        get_proc(None, b"vkCreateInstance"))
    result = create(ctypes.byref(info), None, ctypes.byref(instance))
    if result != 0:
        return {"available": False, "reason": f"vkCreateInstance failed with VkResult {result}"}

    def instance_function(name: str, *argtypes):
        address = get_proc(instance, name.encode())
        if not address:
            return None
        return ctypes.CFUNCTYPE(ctypes.c_int32, *argtypes)(address)

    enumerate_devices = instance_function("vkEnumeratePhysicalDevices", ctypes.c_void_p,
                                          ctypes.POINTER(ctypes.c_uint32), ctypes.c_void_p)
    count = ctypes.c_uint32(0)
    enumerate_devices(instance, ctypes.byref(count), None)
    handles = (ctypes.c_void_p * count.value)()
    enumerate_devices(instance, ctypes.byref(count), handles)
    properties = instance_function("vkGetPhysicalDeviceProperties", ctypes.c_void_p, ctypes.c_void_p)
    khr = instance_function("vkGetPhysicalDeviceCooperativeMatrixPropertiesKHR", ctypes.c_void_p,
                            ctypes.POINTER(ctypes.c_uint32), ctypes.c_void_p)
    flexible = instance_function("vkGetPhysicalDeviceCooperativeMatrixFlexibleDimensionsPropertiesNV",
                                 ctypes.c_void_p, ctypes.POINTER(ctypes.c_uint32), ctypes.c_void_p)
    devices = []
    for handle in handles[: count.value]:
        buffer = ctypes.create_string_buffer(4096)
        properties(handle, buffer)
        raw = buffer.raw
        name = raw[20:276].split(b"\0", 1)[0].decode("utf-8", errors="replace")
        driver = int.from_bytes(raw[4:8], "little")
        entry = {"name": name, "driver_version": driver, "cooperative_matrix_khr": [], "cooperative_matrix2_nv": []}
        if khr is not None:
            for p in _enumerate(khr, handle, _CooperativeMatrixProperties, _COOPERATIVE_MATRIX_PROPERTIES_KHR):
                entry["cooperative_matrix_khr"].append({
                    "m": p.MSize, "n": p.NSize, "k": p.KSize, "a": COMPONENT_TYPES.get(p.AType, str(p.AType)),
                    "b": COMPONENT_TYPES.get(p.BType, str(p.BType)), "c": COMPONENT_TYPES.get(p.CType, str(p.CType)),
                    "result": COMPONENT_TYPES.get(p.ResultType, str(p.ResultType)),
                    "saturating": bool(p.saturatingAccumulation), "scope": SCOPES.get(p.scope, str(p.scope))})
        if flexible is not None:
            for p in _enumerate(flexible, handle, _FlexibleDimensionsProperties,
                                _COOPERATIVE_MATRIX_FLEXIBLE_DIMENSIONS_PROPERTIES_NV):
                entry["cooperative_matrix2_nv"].append({
                    "m_granularity": p.MGranularity, "n_granularity": p.NGranularity,
                    "k_granularity": p.KGranularity, "a": COMPONENT_TYPES.get(p.AType, str(p.AType)),
                    "b": COMPONENT_TYPES.get(p.BType, str(p.BType)), "c": COMPONENT_TYPES.get(p.CType, str(p.CType)),
                    "result": COMPONENT_TYPES.get(p.ResultType, str(p.ResultType)),
                    "scope": SCOPES.get(p.scope, str(p.scope)), "workgroup_invocations": p.workgroupInvocations})
        devices.append(entry)
    return {"available": True, "devices": devices}


if __name__ == "__main__":
    sys.stdout.write(json.dumps(query()) + "\n")
