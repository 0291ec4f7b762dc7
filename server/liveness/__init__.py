"""Background loops: due deadlines, dead processes swept, what was let go reclaimed."""
