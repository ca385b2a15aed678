"""Tries to connect to the port named in inputf.txt on 127.0.0.1; answers what happened."""
import socket

port = int(open("inputf.txt").read().split()[0])
try:
    with socket.create_connection(("127.0.0.1", port), timeout=0.5) as connection:
        connection.sendall(b"escaped\n")
        outcome = "connected"
except OSError as error:
    outcome = f"failed {error.errno}"
with open("outputf.txt", "w") as answer:
    answer.write(outcome + "\n")
