package io.poimen.memory.testsupport;

import com.sun.net.httpserver.HttpExchange;
import com.sun.net.httpserver.HttpsConfigurator;
import com.sun.net.httpserver.HttpsServer;
import java.io.IOException;
import java.io.InputStream;
import java.io.OutputStream;
import java.net.InetSocketAddress;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.security.KeyStore;
import java.util.Base64;
import java.util.List;
import java.util.concurrent.Executors;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicInteger;
import javax.net.ssl.KeyManagerFactory;
import javax.net.ssl.SSLContext;

/**
 * What a secured OpenSearch looks like from a client, in front of the in-JVM test node (which runs without the
 * security plugin): HTTPS with a certificate for 127.0.0.1/localhost made by the JDK's keytool (self-signed, so the
 * certificate is its own CA, exported as a PEM bundle), and HTTP basic auth on every request: a request without
 * the right {@code Authorization} header is answered 401 and never reaches the node.
 */
public final class TlsBasicAuthProxy implements AutoCloseable {
    private static final String STORE_PASSWORD = "changeit";

    private final HttpsServer server;
    private final HttpClient backend = HttpClient.newHttpClient();
    private final String target;
    private final String expectedAuthorization;
    private final Path caBundle;
    public final AtomicInteger rejected = new AtomicInteger();
    public final AtomicInteger forwarded = new AtomicInteger();

    private TlsBasicAuthProxy(HttpsServer server, String target, String authorization, Path caBundle) {
        this.server = server;
        this.target = target.replaceAll("/$", "");
        this.expectedAuthorization = authorization;
        this.caBundle = caBundle;
    }

    /** Starts a proxy to {@code target} on a free port, accepting {@code username:password}; keys under {@code dir}. */
    public static TlsBasicAuthProxy start(String target, String username, String password, Path dir)
            throws Exception {
        Path keyStore = selfSignedKeyStore(dir, "proxy");
        Path pem = exportCertificate(dir, keyStore, "proxy");
        KeyStore keys = KeyStore.getInstance("PKCS12");
        try (InputStream in = Files.newInputStream(keyStore)) {
            keys.load(in, STORE_PASSWORD.toCharArray());
        }
        KeyManagerFactory kmf = KeyManagerFactory.getInstance(KeyManagerFactory.getDefaultAlgorithm());
        kmf.init(keys, STORE_PASSWORD.toCharArray());
        SSLContext tls = SSLContext.getInstance("TLS");
        tls.init(kmf.getKeyManagers(), null, null);
        HttpsServer server = HttpsServer.create(new InetSocketAddress("127.0.0.1", 0), 0);
        server.setHttpsConfigurator(new HttpsConfigurator(tls));
        server.setExecutor(Executors.newFixedThreadPool(4));
        String authorization = "Basic " + Base64.getEncoder().encodeToString(
                (username + ":" + password).getBytes(StandardCharsets.UTF_8));
        TlsBasicAuthProxy proxy = new TlsBasicAuthProxy(server, target, authorization, pem);
        server.createContext("/", proxy::handle);
        server.start();
        return proxy;
    }

    /** A PEM certificate of another, unrelated self-signed CA (for "wrong CA" cases). */
    public static Path unrelatedCaBundle(Path dir) throws Exception {
        return exportCertificate(dir, selfSignedKeyStore(dir, "other"), "other");
    }

    public String url() {
        return "https://127.0.0.1:" + server.getAddress().getPort();
    }

    /** The PEM bundle of the CA that signed this proxy's certificate. */
    public Path caBundle() {
        return caBundle;
    }

    private void handle(HttpExchange exchange) throws IOException {
        try (exchange) {
            byte[] body = exchange.getRequestBody().readAllBytes();
            if (!expectedAuthorization.equals(exchange.getRequestHeaders().getFirst("Authorization"))) {
                rejected.incrementAndGet();
                byte[] answer = "{\"error\":\"unauthorized\",\"status\":401}".getBytes(StandardCharsets.UTF_8);
                exchange.getResponseHeaders().add("WWW-Authenticate", "Basic realm=\"opensearch\"");
                exchange.getResponseHeaders().add("Content-Type", "application/json");
                exchange.sendResponseHeaders(401, answer.length);
                exchange.getResponseBody().write(answer);
                return;
            }
            forwarded.incrementAndGet();
            URI uri = exchange.getRequestURI();
            HttpRequest.Builder request = HttpRequest.newBuilder(URI.create(target + uri.getRawPath()
                    + (uri.getRawQuery() != null ? "?" + uri.getRawQuery() : "")))
                    .method(exchange.getRequestMethod(), body.length == 0 ? HttpRequest.BodyPublishers.noBody()
                            : HttpRequest.BodyPublishers.ofByteArray(body));
            for (String header : List.of("Content-Type", "Accept")) {
                String value = exchange.getRequestHeaders().getFirst(header);
                if (value != null) {
                    request.header(header, value);
                }
            }
            HttpResponse<byte[]> response = backend.send(request.build(), HttpResponse.BodyHandlers.ofByteArray());
            response.headers().firstValue("Content-Type").ifPresent(v -> exchange.getResponseHeaders().add("Content-Type", v));
            byte[] answer = response.body();
            boolean head = "HEAD".equals(exchange.getRequestMethod());
            exchange.sendResponseHeaders(response.statusCode(), head || answer.length == 0 ? -1 : answer.length);
            if (!head && answer.length > 0) {
                try (OutputStream out = exchange.getResponseBody()) {
                    out.write(answer);
                }
            }
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
        }
    }

    private static Path selfSignedKeyStore(Path dir, String alias) throws Exception {
        Files.createDirectories(dir);
        Path store = dir.resolve(alias + ".p12");
        Files.deleteIfExists(store);
        keytool("-genkeypair", "-alias", alias, "-keyalg", "RSA", "-keysize", "2048", "-validity", "2",
                "-dname", "CN=localhost", "-ext", "SAN=dns:localhost,ip:127.0.0.1", "-storetype", "PKCS12",
                "-keystore", store.toString(), "-storepass", STORE_PASSWORD, "-keypass", STORE_PASSWORD);
        return store;
    }

    private static Path exportCertificate(Path dir, Path store, String alias) throws Exception {
        Path pem = dir.resolve(alias + "-ca.pem");
        Files.deleteIfExists(pem);
        keytool("-exportcert", "-rfc", "-alias", alias, "-keystore", store.toString(), "-storepass", STORE_PASSWORD,
                "-file", pem.toString());
        return pem;
    }

    private static void keytool(String... args) throws Exception {
        List<String> command = new java.util.ArrayList<>();
        command.add(Path.of(System.getProperty("java.home"), "bin", "keytool").toString());
        command.addAll(List.of(args));
        Process p = new ProcessBuilder(command).redirectErrorStream(true).start();
        String output = new String(p.getInputStream().readAllBytes(), StandardCharsets.UTF_8);
        if (!p.waitFor(60, TimeUnit.SECONDS) || p.exitValue() != 0) {
            throw new IllegalStateException("keytool " + String.join(" ", args) + " failed: " + output);
        }
    }

    @Override
    public void close() {
        server.stop(0);
        ((java.util.concurrent.ExecutorService) server.getExecutor()).shutdownNow();
    }
}
