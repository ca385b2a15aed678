# Fixed work: the number of rounds in inputf.txt, then an answer.
rounds = File.read("inputf.txt").split[0].to_i
total = 0
i = 0
while i < rounds
  total = (total * 31 + i) % 1000003
  i += 1
end
File.write("outputf.txt", "#{total % 2}\n")
