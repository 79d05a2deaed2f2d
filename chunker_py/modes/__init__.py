"""The splitting modes: the registry (``registry.py``) and one module per mode. Imports the
engine, text facts and sizing; never another mode.
"""
