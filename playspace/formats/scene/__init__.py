"""Scene files (TOML), read and checked: every table and key of ``docs/scene-format.md``.

What a scene becomes in a world (its entities, its physics) is :mod:`playspace.scene`'s.
"""
