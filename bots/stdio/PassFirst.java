// A whistle stdio bot in Java, standard library only; run it with
// `java PassFirst.java` (no build step).
//
// whistle writes one JSON object per line on stdin; each line whose "type"
// is "request" is answered with one line on stdout. The rule: answer with
// the action's text: "pass" when it is legal, else the last legal action
// (the highest card, the largest bid). Other lines are ignored. The legal
// actions never contain quotes, so a small scan reads them without a JSON
// library. See docs/stdio.md.
import java.io.BufferedReader;
import java.io.InputStreamReader;
import java.nio.charset.StandardCharsets;
import java.util.ArrayList;
import java.util.List;

public class PassFirst {
    /** The strings of the array under "legal" in a request line. */
    static List<String> legal(String line) {
        List<String> out = new ArrayList<>();
        int start = line.indexOf("\"legal\":[");
        if (start < 0) return out;
        int end = line.indexOf(']', start);
        String[] parts = line.substring(start + 9, end).split("\"");
        for (int i = 1; i < parts.length; i += 2) out.add(parts[i]);
        return out;
    }

    static String choose(List<String> legal) {
        return legal.contains("pass") ? "pass" : legal.get(legal.size() - 1);
    }

    public static void main(String[] args) throws Exception {
        BufferedReader in = new BufferedReader(new InputStreamReader(System.in, StandardCharsets.UTF_8));
        String line;
        while ((line = in.readLine()) != null) {
            if (!line.startsWith("{\"type\":\"request\"")) continue;
            List<String> actions = legal(line);
            System.out.println(actions.isEmpty() ? "0" : choose(actions));
            System.out.flush();
        }
    }
}
