# Attack through the Ruby runtime: BEGIN (not run by `ruby -c`: if it were, begin.txt would fail the
# build), a daemon (Process.daemon in a forked child, SIGTERM trapped) that keeps appending lines tagged
# with the decision's number to linger.txt for 30 s, and a trap on TERM in the decision itself. Every
# decision notes "start-N" there first, then answers 0 as Checker.py does. Nothing it started may write
# after its decision: every tagged line must follow its own decision's "start-N" and precede the next.
BEGIN { File.open("begin.txt", "a") { |f| f.puts("begin") } }

decision = File.exist?("begin.txt") ? File.readlines("begin.txt").size : 0
File.open("linger.txt", "a") { |f| f.puts("start-#{decision}") }
trap("TERM") {}
pid = fork do
  Process.daemon(true, true)
  trap("TERM") {}
  trap("HUP") {}
  3000.times do
    File.open("/team/linger.txt", "a") { |f| f.puts("daemon-#{decision}") }
    sleep 0.01
  end
end
Process.detach(pid)
File.write("outputf.txt", "0\n")
