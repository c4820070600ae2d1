package io.poimen.memory.retrieval.query;

import java.util.ArrayList;
import java.util.LinkedHashSet;
import java.util.List;
import java.util.Locale;
import java.util.Set;
import java.util.regex.Matcher;
import java.util.regex.Pattern;

/**
 * Entities worth matching exactly: ports, error names and versions. Values are returned as written
 * (a port without its colon), first occurrence first, without duplicates.
 *
 * <ul>
 *   <li>Ports: {@code host:8080}, {@code :8080}, {@code 10.0.0.1:5432}, {@code port 5432}, {@code port=5432},
 *       {@code 5432 port}, {@code 443/tcp}; 2–5 digits, at most 65535. Clock times ({@code 10:30}) are not ports.</li>
 *   <li>Error names: CamelCase words ending in Error, Exception, BackOff or Killed ({@code CrashLoopBackOff},
 *       {@code OOMKilled}); errno-style codes ({@code ECONNREFUSED}); signals ({@code SIGKILL}); DNS codes
 *       ({@code NXDOMAIN}, {@code SERVFAIL}); compiler codes ({@code E0382}, {@code TS2345}); HTTP classes
 *       ({@code 5xx}); HTTP statuses 100–599 within two words of an error word ({@code 404 not found},
 *       {@code returns 502}).</li>
 *   <li>Versions: {@code v1.2.3}, {@code 1.28}, {@code 1.2.3-rc1}, {@code pg15}, {@code java17},
 *       {@code version 15}. Dotted quads (IP addresses) are not versions.</li>
 * </ul>
 */
final class QueryEntities {
    private static final Pattern HOST_PORT = Pattern.compile(
            "(?<![\\w.:])(?:\\d{1,3}(?:\\.\\d{1,3}){3}|[\\w.-]*[A-Za-z][\\w.-]*)?:(\\d{2,5})\\b(?![:.]\\d)");
    private static final Pattern PORT_WORD = Pattern.compile(
            "(?i)\\bports?\\s*(?:number\\s*)?[:=#]?\\s*(\\d{2,5})\\b|\\b(\\d{2,5})(?:/(?:tcp|udp))?\\s+port\\b|\\b(\\d{2,5})/(?:tcp|udp)\\b");
    private static final Pattern ERROR_NAME = Pattern.compile(
            "\\b(?:[A-Z][A-Za-z0-9]*(?:Error|Exception|BackOff|Killed)"
                    + "|E[A-Z]{3,}|SIG[A-Z]{2,}|NX[A-Z]{2,}|SERVFAIL|[A-Z]{1,3}\\d{3,5}|[1-5]xx)\\b");
    private static final Pattern HTTP_STATUS = Pattern.compile("\\b[1-5]\\d{2}\\b");
    private static final Set<String> ERROR_WORDS = Set.of("error", "errors", "status", "http", "https", "code",
            "fail", "fails", "failed", "failing", "failure", "response", "returns", "returned", "returning",
            "return", "gateway", "unavailable", "forbidden", "unauthorized", "found", "timeout", "bad", "server",
            "internal", "got", "getting", "throws", "denied");
    private static final Pattern VERSION = Pattern.compile(
            "(?<![\\w.])(?:[vV]\\d+(?:\\.\\d+){0,3}|\\d+\\.\\d+(?:\\.\\d+)?)(?:-[A-Za-z0-9]+(?:\\.[A-Za-z0-9]+)*)?(?![\\w.]*\\d)(?!\\.\\d)"
                    + "|(?i:\\bversion\\s+(\\d+(?:\\.\\d+)*))\\b");
    private static final Pattern NAMED_VERSION = Pattern.compile("\\b([A-Za-z]{2,12})(\\d{1,3}(?:\\.\\d+)*)\\b");
    /** Letter-digit words that are names, not product versions (sha256, utf8, ipv6, x86, http2, ...). */
    private static final Set<String> NOT_PRODUCTS = Set.of("sha", "md", "utf", "base", "ipv", "arm", "amd", "int",
            "uint", "float", "http", "tls", "ssl", "rfc", "iso", "cs", "ts", "ec", "rsa", "aes", "crc", "ucs", "ext",
            "raid", "usb", "pcie", "ddr", "gen", "top", "step", "phase", "part", "page", "item", "test");

    private QueryEntities() {
    }

    static List<String> extract(String text) {
        Set<String> out = new LinkedHashSet<>();
        ports(text, out);
        errors(text, out);
        versions(text, out);
        return new ArrayList<>(out);
    }

    private static void ports(String text, Set<String> out) {
        Matcher m = HOST_PORT.matcher(text);
        while (m.find()) {
            addPort(m.group(1), out);
        }
        m = PORT_WORD.matcher(text);
        while (m.find()) {
            addPort(m.group(1) != null ? m.group(1) : m.group(2) != null ? m.group(2) : m.group(3), out);
        }
    }

    private static void addPort(String digits, Set<String> out) {
        int port = Integer.parseInt(digits);
        if (port >= 1 && port <= 65535) {
            out.add(digits);
        }
    }

    private static void errors(String text, Set<String> out) {
        Matcher m = ERROR_NAME.matcher(text);
        while (m.find()) {
            out.add(m.group());
        }
        List<String> words = List.of(text.toLowerCase(Locale.ROOT).split("[^\\p{L}\\p{N}]+"));
        for (int i = 0; i < words.size(); i++) {
            if (HTTP_STATUS.matcher(words.get(i)).matches() && nearErrorWord(words, i)) {
                out.add(words.get(i));
            }
        }
    }

    private static boolean nearErrorWord(List<String> words, int i) {
        for (int j = Math.max(0, i - 2); j <= Math.min(words.size() - 1, i + 2); j++) {
            if (j != i && ERROR_WORDS.contains(words.get(j))) {
                return true;
            }
        }
        return false;
    }

    private static void versions(String text, Set<String> out) {
        Matcher m = VERSION.matcher(text);
        while (m.find()) {
            out.add(m.group(1) != null ? m.group(1) : m.group());
        }
        m = NAMED_VERSION.matcher(text);
        while (m.find()) {
            if (!NOT_PRODUCTS.contains(m.group(1).toLowerCase(Locale.ROOT)) && !isErrorName(m.group())) {
                out.add(m.group());
            }
        }
    }

    /** True for an error name or code ({@code CrashLoopBackOff}, {@code ENOENT}, {@code 5xx}), not for a bare status. */
    static boolean isErrorName(String word) {
        return ERROR_NAME.matcher(word).matches();
    }
}
