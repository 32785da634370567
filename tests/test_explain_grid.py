"""`run --explain` beside a run too small to fill the GPU (issue 32's second walk): Dawn's one-workgroup test
kernel measured 0.6x-1.1x for fixes that quoted 1.8x-5.7x, since every pair ran with all 132 of the H100's
multiprocessors busy. The findings then say the figures do not apply to the run."""

from coop_lsp.ide.explain import grid_note


def test_one_workgroup_on_the_h100_is_told_the_figures_do_not_apply():
    note = grid_note((1, 1, 1), "nvidia-h100")
    assert "dispatched 1 workgroup for nvidia-h100's 132 multiprocessors" in note
    assert "do not apply to this run" in note


def test_a_grid_that_fills_every_multiprocessor_keeps_the_figures():
    assert grid_note((32, 32, 1), "nvidia-h100") == ""  # ggml at 4096^3: 1024 workgroups
    assert grid_note((132, 1, 1), "nvidia-h100") == ""


def test_a_grid_of_a_few_workgroups_says_how_many():
    assert "dispatched 8 workgroups" in grid_note((4, 2, 1), "nvidia-h100")


def test_a_profile_without_a_multiprocessor_count_says_nothing():
    assert grid_note((1, 1, 1), "no-such-profile") == ""
    assert grid_note((), "nvidia-h100") == ""
