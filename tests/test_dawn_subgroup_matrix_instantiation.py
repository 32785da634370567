"""Dawn's tiled subgroup-matrix test kernel is instantiated by evaluating the test's own shader-building
C++ statements (benchmarks/dawn_subgroup_matrix.py); these cases give it C++ of that form."""

from __future__ import annotations

import pytest

from benchmarks.dawn_subgroup_matrix import UnknownConstruct, instantiate

# The shape of SubgroupMatrix_TiledMatrixMultiplyTest: conditional enables, aliases from the config,
# values computed in C++, and a raw string joined with `std::string(cond ? "/4" : "")`.
TEST_LIKE = '''
TEST_P(SubgroupMatrix_TiledMatrixMultiplyTest, MatrixMultiply) {
        std::ostringstream shader;
        shader << "enable f16;\\n";
        if (config.componentType == wgpu::SubgroupMatrixComponentType::F16 ||
            config.resultComponentType == wgpu::SubgroupMatrixComponentType::F16) {
            shader << "// has f16\\n";
        }
        shader << "alias E = " << ComponentTypeToWgslType(config.resultComponentType) << ";\\n";
        shader << "alias S = " << ComponentTypeToScalarShaderType(config.componentType) << ";\\n";
        shader << "const T = " << kTileDim << ";\\n";  // the tile count
        shader << R"(
const W = kMatrixK)" + std::string(comp_8bit ? "/4" : "") + R"(;
)";
        device.PushErrorScope(wgpu::ErrorFilter::Internal);
}
'''


def test_the_statements_are_evaluated_for_one_configuration():
    text = instantiate(TEST_LIKE, "F16", "F32", 16, 16, 16, tile_dim=4, workgroup_size=128)
    assert text == "enable f16;\n// has f16\nalias E = f32;\nalias S = f16;\nconst T = 4;\n\nconst W = kMatrixK;\n"


def test_an_8_bit_configuration_takes_the_other_branches():
    text = instantiate(TEST_LIKE, "I8", "I32", 16, 16, 32, tile_dim=2, workgroup_size=128)
    assert "// has f16" not in text
    assert "alias S = i32;" in text and "const W = kMatrixK/4;" in text


def test_a_construct_the_evaluator_does_not_know_is_refused_not_guessed():
    changed = TEST_LIKE.replace("<< kTileDim <<", "<< SomethingNew(kTileDim) <<")
    with pytest.raises(UnknownConstruct):
        instantiate(changed, "F16", "F32", 16, 16, 16, tile_dim=4, workgroup_size=128)
