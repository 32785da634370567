"""Whether bytes may be a template at all: a test cheap enough for every plain file and keystroke."""

# Every template style starts with one of these; plain WGSL holds none of them outside comments.
_MARKS = (b"#", b"{{", b"${", b"@if", b"@el", b"import")


def may_be_template(data: bytes) -> bool:
    """False for plain WGSL without a look at its structure; True means: ask `is_template`."""
    # (`find`, not `in`: `mark in data` tries the mark as a byte value first, raising and dropping a TypeError)
    return any(data.find(mark) >= 0 for mark in _MARKS)


_REACH = max(len(mark) for mark in _MARKS) - 1


def marks_near(data: bytes, start: int, length: int) -> bool:
    """For bytes [start, start + length) of `data` written over text that held no mark: whether they made
    one. A new mark lies neither wholly before them nor wholly after (both unchanged), so it overlaps them
    or, where they are empty, spans the join at `start`: within the longest mark's reach of them."""
    return may_be_template(data[max(0, start - _REACH):start + length + _REACH])
