import java.nio.file.Files;
import java.nio.file.Path;

public class TinyJava {
    public static void main(String[] args) throws Exception {
        long total = 0;
        for (String word : Files.readString(Path.of("inputf.txt")).trim().split("\\s+")) {
            total += Long.parseLong(word);
        }
        Files.writeString(Path.of("outputf.txt"), total + "\n");
    }
}
