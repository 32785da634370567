"""Whether bytes may be a template at all: a test cheap enough for every plain file and keystroke."""

# Every template style starts with one of these; plain WGSL holds none of them outside comments.
_MARKS = (b"#", b"{{", b"${", b"@if", b"@el", b"import")


def may_be_template(data: bytes) -> bool:
    """False for plain WGSL without a look at its structure; True means: ask `is_template`."""
    return any(mark in data for mark in _MARKS)
