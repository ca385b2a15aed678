// Fixed work: the number of rounds in inputf.txt, then an answer.
import java.nio.file.Files;
import java.nio.file.Path;

public class Work {
    public static void main(String[] args) throws Exception {
        long rounds = Long.parseLong(Files.readString(Path.of("inputf.txt")).trim().split("\\s+")[0]);
        long total = 0;
        for (long i = 0; i < rounds; i++) total = (total * 31 + i) % 1000003;
        Files.writeString(Path.of("outputf.txt"), (total % 2) + "\n");
    }
}
