"""Facts about a text, independent of any setting's mode: sentences, Markdown blocks,
graphemes, and what documents are accepted. Imports only the engine.
"""
