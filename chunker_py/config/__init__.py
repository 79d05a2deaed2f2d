"""Settings: the validated frozen settings (common fields plus each mode's) and share links.
Imports the modes' registry and below.
"""
