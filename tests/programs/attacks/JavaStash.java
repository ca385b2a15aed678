/* Attack on the build: in the final, a Java team's help files are in its folder during the build, and
 * every *.class file there after the build is taken as a build product. A help file named Stash.class
 * (given from an earlier round) so becomes arena's: it no longer counts as a help file, and the team can
 * no longer rewrite it. Each decision keeps 15 other help files (h1.txt ... h15.txt, the whole allowance
 * with Stash.class counted) and notes in stash.txt whether it could append to Stash.class. Answers 0,
 * as Checker.py does. By the rules, 16 help files is one too many, and Stash.class stays the team's. */
import java.io.FileOutputStream;
import java.io.FileWriter;
import java.io.IOException;

public class JavaStash {
    public static void main(String[] args) throws Exception {
        for (int i = 1; i <= 15; i++) {
            try (FileWriter help = new FileWriter("h" + i + ".txt")) {
                help.write("kept\n");
            }
        }
        String appended;
        try (FileOutputStream stash = new FileOutputStream("Stash.class", true)) {
            stash.write('x');
            appended = "appended";
        } catch (IOException e) {
            appended = "refused";
        }
        try (FileWriter note = new FileWriter("h1.txt", true)) {
            note.write(appended + "\n");
        }
        try (FileWriter answer = new FileWriter("outputf.txt")) {
            answer.write("0\n");
        }
    }
}
