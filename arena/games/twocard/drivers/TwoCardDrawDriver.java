// Line-protocol driver for a Java TwoCardDraw solution (TwoCardDraw's class interface), used unchanged.
// The judge writes one call per line ("round2 1 3 1 0 2"); the driver calls the method of that name
// on one TwoCardDraw instance and prints the int it returns.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.io.PrintStream;
import java.io.FileOutputStream;
import java.io.FileDescriptor;
import java.io.BufferedOutputStream;

public class TwoCardDrawDriver {
    public static void main(String[] argv) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in));
        PrintStream out = new PrintStream(new BufferedOutputStream(new FileOutputStream(FileDescriptor.out)), false);
        System.setOut(System.err);  // a solution's own printing must not corrupt the protocol
        TwoCardDraw player = new TwoCardDraw();
        String line;
        while ((line = in.readLine()) != null) {
            String[] f = line.trim().split("\\s+");
            if (f.length == 0 || f[0].isEmpty()) continue;
            int[] a = new int[f.length - 1];
            for (int i = 1; i < f.length; i++) a[i - 1] = Integer.parseInt(f[i]);
            int answer;
            switch (f[0]) {
                case "init": answer = player.init(a[0], a[1]); break;
                case "new_hand": answer = player.new_hand(a[0], a[1], a[2]); break;
                case "round1": answer = player.round1(a[0], a[1], a[2]); break;
                case "draw": answer = player.draw(a[0], a[1], a[2]); break;
                case "round2": answer = player.round2(a[0], a[1], a[2], a[3], a[4]); break;
                case "showdown": answer = player.showdown(a[0], a[1], a[2], a[3]); break;
                default: System.err.println("driver: unknown call " + line); System.exit(3); return;
            }
            out.println(answer);
            out.flush();
        }
    }
}
