package io.poimen.memory.cluster;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.io.IOException;
import java.io.UncheckedIOException;
import java.net.ServerSocket;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.time.Duration;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;

/** One hub started as its own JVM ({@code io.poimen.memory.cli.PoimenCli}) from this test JVM's class path. */
public final class HubProcess {
    private static final HttpClient HTTP = HttpClient.newBuilder().connectTimeout(Duration.ofSeconds(2)).build();
    private static final ObjectMapper JSON = new ObjectMapper();

    final String name;
    public final int port;
    public final Path log;
    private final Process process;
    private final String token;

    private HubProcess(String name, int port, Path log, Process process, String token) {
        this.name = name;
        this.port = port;
        this.log = log;
        this.process = process;
        this.token = token;
    }

    /** Starts {@code serve} on a free port with {@code properties} as {@code --key=value} arguments. */
    public static HubProcess start(String name, Path dir, Map<String, String> properties, String token)
            throws IOException {
        int port = freePort();
        Files.createDirectories(dir);
        List<String> command = new ArrayList<>(List.of(Path.of(System.getProperty("java.home"), "bin", "java").toString(),
                "-Xmx768m", "-XX:+UseSerialGC", "-cp", System.getProperty("java.class.path"),
                "io.poimen.memory.cli.PoimenCli", "serve", "--server.port=" + port));
        properties.forEach((k, v) -> command.add("--" + k + "=" + v));
        Path log = dir.resolve(name + ".log");
        Process process = new ProcessBuilder(command).redirectErrorStream(true)
                .redirectOutput(log.toFile()).start();
        return new HubProcess(name, port, log, process, token);
    }

    public boolean alive() {
        return process.isAlive();
    }

    /** Kills the JVM at once, as a crashed pod or a lost node would (no shutdown hook, no lease handed over). */
    public void kill() throws InterruptedException {
        process.destroyForcibly();
        process.waitFor();
    }

    /** Asks the JVM to stop (SIGTERM): the shutdown hook runs Spring's and Camel's graceful shutdown. */
    public void terminate() {
        process.destroy();
    }

    public boolean ready() {
        try {
            return get("/actuator/health/readiness").statusCode() == 200;
        } catch (IOException e) {
            return false;
        }
    }

    JsonNode cluster() throws IOException {
        return JSON.readTree(get("/memory/cluster").body());
    }

    HttpResponse<String> get(String path) throws IOException {
        return send(HttpRequest.newBuilder(uri(path)).GET());
    }

    HttpResponse<String> postJson(String path, String body) throws IOException {
        return send(HttpRequest.newBuilder(uri(path)).header("Content-Type", "application/json")
                .POST(HttpRequest.BodyPublishers.ofString(body)));
    }

    HttpResponse<String> post(String path, byte[] body, Map<String, String> headers) throws IOException {
        HttpRequest.Builder b = HttpRequest.newBuilder(uri(path)).POST(HttpRequest.BodyPublishers.ofByteArray(body));
        headers.forEach(b::header);
        return send(b);
    }

    private URI uri(String path) {
        return URI.create("http://127.0.0.1:" + port + path);
    }

    private HttpResponse<String> send(HttpRequest.Builder request) throws IOException {
        try {
            return HTTP.send(request.timeout(Duration.ofSeconds(30)).header("Authorization", "Bearer " + token).build(),
                    HttpResponse.BodyHandlers.ofString(StandardCharsets.UTF_8));
        } catch (InterruptedException e) {
            Thread.currentThread().interrupt();
            throw new IOException(e);
        }
    }

    public String logTail() {
        try {
            List<String> lines = Files.readAllLines(log);
            return String.join("\n", lines.subList(Math.max(0, lines.size() - 40), lines.size()));
        } catch (IOException e) {
            return "(no log: " + e + ")";
        }
    }

    static int freePort() {
        try (ServerSocket socket = new ServerSocket(0)) {
            return socket.getLocalPort();
        } catch (IOException e) {
            throw new UncheckedIOException(e);
        }
    }

    @Override
    public String toString() {
        return name + ":" + port;
    }
}
