# Answers with text that is not an integer.
with open("outputf.txt", "w") as out:
    out.write("all in, baby!\n")
