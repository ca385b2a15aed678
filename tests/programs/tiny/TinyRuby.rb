total = File.read("inputf.txt").split.map(&:to_i).sum
File.write("outputf.txt", "#{total}\n")
