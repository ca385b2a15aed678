/* Attack through the Java runtime: leave work running past the decision and rewrite the build.
 *
 * Several top-level classes and a static initialiser; every decision starts a process with ProcessBuilder
 * (a shell that backgrounds a loop appending to linger.txt for 30 s, tagged with the decision's number), a
 * daemon thread doing the same, and a shutdown hook; then it tries to rewrite, replace, chmod and delete its own class files (root's, 0444)
 * and notes each try in tries.txt ("name:done" or "name:denied"). It answers 0, as Checker.py does.
 * Nothing it started may write to linger.txt after its decision, and its classes must stay arena's.
 */
import java.io.File;
import java.io.FileOutputStream;
import java.io.FileWriter;
import java.io.IOException;
import java.nio.file.Files;
import java.nio.file.Paths;
import java.nio.file.StandardCopyOption;

class Note {
    static void write(String file, String line) {
        try (FileWriter out = new FileWriter(file, true)) {
            out.write(line + "\n");
        } catch (IOException e) {
            // nothing to note it in
        }
    }
}

class Tries {
    static void attempt(String name, Runnable body) {
        try {
            body.run();
            Note.write("tries.txt", name + ":done");
        } catch (RuntimeException e) {
            Note.write("tries.txt", name + ":denied");
        }
    }

    static void unchecked(Callable body) {
        try {
            body.call();
        } catch (IOException e) {
            throw new RuntimeException(e);
        }
    }

    interface Callable {
        void call() throws IOException;
    }
}

public class JavaLinger {
    static final long STARTED;

    static {
        STARTED = System.nanoTime();
        Note.write("static.txt", "initialised");
    }

    public static void main(String[] args) throws Exception {
        String deal = String.valueOf(Files.readAllLines(Paths.get("static.txt")).size());
        Note.write("linger.txt", "start-" + deal);
        new ProcessBuilder("/bin/sh", "-c",
                "(i=0; while [ $i -lt 3000 ]; do echo child-" + deal + " >> linger.txt; i=$((i+1)); "
                + "sleep 0.01; done) >/dev/null 2>&1 &")
                .start().waitFor();
        Thread daemon = new Thread(() -> {
            for (int i = 0; i < 3000; i++) {
                Note.write("linger.txt", "thread-" + deal);
                try {
                    Thread.sleep(10);
                } catch (InterruptedException e) {
                    return;
                }
            }
        });
        daemon.setDaemon(true);
        daemon.start();
        Runtime.getRuntime().addShutdownHook(new Thread(() -> Note.write("hooks.txt", "hook")));
        Tries.attempt("write-class", () -> Tries.unchecked(() -> {
            try (FileOutputStream out = new FileOutputStream("JavaLinger.class")) {
                out.write(0);
            }
        }));
        Tries.attempt("replace-class", () -> Tries.unchecked(() -> {
            Files.write(Paths.get("Fake.class"), new byte[] {1, 2, 3});
            Files.move(Paths.get("Fake.class"), Paths.get("Note.class"), StandardCopyOption.REPLACE_EXISTING);
        }));
        Tries.attempt("chmod-class", () -> {
            if (!new File("Tries.class").setWritable(true)) {
                throw new RuntimeException("refused");
            }
        });
        Tries.attempt("delete-class", () -> Tries.unchecked(() -> Files.delete(Paths.get("Tries$Callable.class"))));
        new File("Fake.class").delete();
        try (FileWriter answer = new FileWriter("outputf.txt")) {
            answer.write("0\n");
        }
    }
}
