"""Attack: after two clean decisions, leave what a tree walk trips on.

A FIFO and a socket in its folder, a 1,100-deep folder chain in its folder and in /tmp, and a
``chmod 000`` folder holding a file in both. Answers 0 (call) every time.
"""
import os
import socket


def chain(where: str, depth: int) -> None:
    fd = os.open(where, os.O_RDONLY | os.O_DIRECTORY)
    for _ in range(depth):
        try:
            os.mkdir("d", dir_fd=fd)
        except FileExistsError:
            pass
        deeper = os.open("d", os.O_RDONLY | os.O_DIRECTORY, dir_fd=fd)
        os.close(fd)
        fd = deeper
    os.close(fd)


def locked(where: str) -> None:
    os.makedirs(f"{where}/locked", exist_ok=True)
    os.chmod(f"{where}/locked", 0o700)  # locked by the decision before
    open(f"{where}/locked/inside.txt", "w").close()
    os.chmod(f"{where}/locked", 0)


try:
    runs = int(open("runs.txt").read())
except OSError:
    runs = 0
open("runs.txt", "w").write(str(runs + 1))
if runs >= 2:
    for make in (lambda: os.mkfifo("pipe"), lambda: socket.socket(socket.AF_UNIX).bind("sock")):
        try:
            make()
        except OSError:
            pass
    os.makedirs("deep", exist_ok=True)
    os.makedirs("/tmp/deep", exist_ok=True)
    chain("deep", 1100)
    chain("/tmp/deep", 1100)
    locked(".")
    locked("/tmp")
with open("outputf.txt", "w") as answer:
    answer.write("0\n")
