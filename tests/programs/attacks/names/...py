# Well behaved: checks or calls every time.
with open("outputf.txt", "w") as out:
    out.write("0\n")
