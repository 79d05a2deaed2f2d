from .io.cli import console

console()
