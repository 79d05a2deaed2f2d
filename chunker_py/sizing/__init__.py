"""Measuring in tokens: a tokenizer as the engine's sizer, and token windows. Imports the
engine and the tokenizers.
"""
