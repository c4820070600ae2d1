package io.poimen.memory.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import java.io.IOException;
import java.io.RandomAccessFile;
import java.net.URI;
import java.net.URLEncoder;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.nio.charset.StandardCharsets;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Map;
import org.eclipse.jgit.lib.Constants;
import org.eclipse.jgit.lib.ObjectInserter;
import org.junit.jupiter.api.AfterAll;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.TestInstance;
import org.junit.jupiter.api.io.TempDir;
import org.springframework.util.FileSystemUtils;

/**
 * {@code GET /memory/vault/attachment} over HTTP on the embedded no-auth hub (the local operator reads every
 * folder): each served type with its content type, bytes and headers; revalidation; the size cap; and one 404 for
 * everything the hub does not serve as a vault file (hidden folders, policy files, symbolic links in or out of the
 * vault, a path under a file, a folder, a FIFO), the same as for a missing file.
 */
@TestInstance(TestInstance.Lifecycle.PER_CLASS)
class VaultAttachmentsHttpTest extends HubWebTestBase {
    static final String DIAGRAM = "projects/poimen/attachments/cluster-diagram.png";
    static final Path VAULT = GIT_ROOT.resolve("vault");
    final HttpClient http = HttpClient.newHttpClient();

    HttpResponse<byte[]> get(String path, String... headers) throws Exception {
        HttpRequest.Builder r = HttpRequest.newBuilder(URI.create(base() + "/memory/vault/attachment?path="
                + URLEncoder.encode(path, StandardCharsets.UTF_8)));
        if (headers.length > 0) {
            r.headers(headers);
        }
        return http.send(r.build(), HttpResponse.BodyHandlers.ofByteArray());
    }

    static JsonNode json(HttpResponse<byte[]> r) throws IOException {
        assertThat(r.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t)
                .startsWith("application/json"));
        return JSON.readTree(r.body());
    }

    static String blobId(byte[] bytes) {
        return new ObjectInserter.Formatter().idFor(Constants.OBJ_BLOB, bytes).name();
    }

    /** What the tests add to the vault the other web tests share, removed after them. */
    final List<Path> added = new ArrayList<>();

    void write(String path, byte[] bytes) throws IOException {
        Path file = VAULT.resolve(path);
        Files.createDirectories(file.getParent());
        Files.write(file, bytes);
        added.add(file);
    }

    @AfterAll
    void removeWhatTheTestsAdded() throws IOException {
        for (Path p : added) {
            FileSystemUtils.deleteRecursively(p);
        }
    }

    @Test
    void aReaderGetsTheDiagramWithItsTypeBytesAndHeadersAndRevalidatesWithItsBlobId() throws Exception {
        byte[] bytes = Files.readAllBytes(VAULT.resolve(DIAGRAM));
        HttpResponse<byte[]> r = get(DIAGRAM);
        assertThat(r.statusCode()).isEqualTo(200);
        assertThat(r.headers().firstValue("Content-Type")).hasValue("image/png");
        assertThat(r.body()).isEqualTo(bytes);
        assertThat(r.headers().firstValueAsLong("Content-Length")).hasValue(bytes.length);
        assertThat(r.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
        assertThat(r.headers().firstValue("Content-Disposition")).hasValue(
                "inline; filename=\"cluster-diagram.png\"; filename*=UTF-8''cluster-diagram.png");
        assertThat(r.headers().allValues("Cache-Control")).containsExactly("private, no-cache");
        String etag = r.headers().firstValue("ETag").orElseThrow();
        assertThat(etag).isEqualTo("\"" + blobId(bytes) + "\"");
        // a raster image keeps the hub's own policy
        assertThat(r.headers().allValues("Content-Security-Policy")).singleElement()
                .satisfies(csp -> assertThat(csp).contains("img-src 'self' data: blob:"));

        HttpResponse<byte[]> again = get(DIAGRAM, "If-None-Match", etag);
        assertThat(again.statusCode()).isEqualTo(304);
        assertThat(again.body()).isEmpty();
        assertThat(again.headers().firstValue("ETag")).hasValue(etag);
        assertThat(get(DIAGRAM, "If-None-Match", "\"0000\"").statusCode()).isEqualTo(200);

        HttpResponse<Void> head = http.send(HttpRequest.newBuilder(URI.create(base()
                + "/memory/vault/attachment?path=" + DIAGRAM)).method("HEAD", HttpRequest.BodyPublishers.noBody())
                .build(), HttpResponse.BodyHandlers.discarding());
        assertThat(head.statusCode()).isEqualTo(200);
        assertThat(head.headers().firstValueAsLong("Content-Length")).hasValue(bytes.length);
        assertThat(head.headers().firstValue("ETag")).hasValue(etag);
    }

    @Test
    void everyServedTypeHasItsContentTypeAndAnSvgReplacesTheHubsPolicyWithASandbox() throws Exception {
        Map<String, String> types = Map.of("projects/poimen/attachments/photo.JPG", "image/jpeg",
                "projects/poimen/attachments/photo.jpeg", "image/jpeg",
                "projects/poimen/attachments/anim.gif", "image/gif",
                "projects/poimen/attachments/pic.webp", "image/webp",
                "projects/poimen/attachments/runbook export.pdf", "application/pdf",
                "projects/poimen/attachments/flow.svg", "image/svg+xml");
        for (Map.Entry<String, String> t : types.entrySet()) {
            byte[] bytes = ("bytes of " + t.getKey()).getBytes(StandardCharsets.UTF_8);
            write(t.getKey(), bytes);
            HttpResponse<byte[]> r = get(t.getKey());
            assertThat(r.statusCode()).as(t.getKey()).isEqualTo(200);
            assertThat(r.headers().firstValue("Content-Type")).as(t.getKey()).hasValue(t.getValue());
            assertThat(r.body()).as(t.getKey()).isEqualTo(bytes);
            assertThat(r.headers().firstValue("Content-Disposition").orElseThrow()).as(t.getKey()).startsWith("inline;");
        }
        assertThat(get("projects/poimen/attachments/runbook export.pdf").headers().firstValue("Content-Disposition"))
                .hasValue("inline; filename=\"runbook export.pdf\"; filename*=UTF-8''runbook%20export.pdf");
        assertThat(AttachmentServlet.inline("Plan \"B\" \u00e9t\u00e9.png"))
                .isEqualTo("inline; filename=\"Plan _B_ _t_.png\"; filename*=UTF-8''Plan%20%22B%22%20%C3%A9t%C3%A9.png");
        HttpResponse<byte[]> svg = get("projects/poimen/attachments/flow.svg");
        assertThat(svg.headers().allValues("Content-Security-Policy")).as("replaced, not merged")
                .containsExactly("default-src 'none'; style-src 'unsafe-inline'; sandbox");
        assertThat(svg.headers().firstValue("X-Content-Type-Options")).hasValue("nosniff");
    }

    /** Everything the hub does not serve gets the answer of a missing file, but for the path it names. */
    @Test
    void hiddenPolicyLinkedUnderAFileFolderAndFifoPathsAnswerExactlyAsAMissingFile(@TempDir Path outside)
            throws Exception {
        byte[] png = Files.readAllBytes(VAULT.resolve(DIAGRAM));
        write(".git/leak.png", png);
        write(".obsidian/theme.png", png);
        write("projects/poimen/.trash/old.png", png);
        write("projects/poimen/attachments/.hidden.png", png);
        write("projects/poimen/attachments/_access.yaml.png", png);
        write("projects/rust-guide/assets/ferris.png", png);
        added.add(Files.createDirectories(VAULT.resolve("projects/poimen/attachments/folder.png")));
        Files.write(outside.resolve("outside.png"), png);
        Path links = VAULT.resolve("projects/poimen/links");
        added.add(Files.createDirectories(links));
        Files.createSymbolicLink(links.resolve("out.png"), outside.resolve("outside.png"));
        Files.createSymbolicLink(links.resolve("other-project.png"), VAULT.resolve("projects/rust-guide/assets/ferris.png"));
        Files.createSymbolicLink(links.resolve("out-dir"), outside);
        Files.createSymbolicLink(links.resolve("in-dir"), VAULT.resolve("projects/rust-guide/assets"));
        Process fifo = new ProcessBuilder("mkfifo", links.resolve("pipe.png").toString()).inheritIO().start();
        assertThat(fifo.waitFor()).isZero();

        String missing = "projects/poimen/attachments/no-such-diagram.png";
        HttpResponse<byte[]> none = get(missing);
        assertThat(none.statusCode()).isEqualTo(404);
        assertThat(json(none).toString()).isEqualTo(
                "{\"error\":\"not_found\",\"message\":\"no such attachment: " + missing + "\"}");
        for (String path : List.of(".git/leak.png", ".obsidian/theme.png", "projects/poimen/.trash/old.png",
                "projects/poimen/attachments/.hidden.png", "projects/poimen/attachments/_access.yaml.png",
                "projects/poimen/attachments/folder.png", DIAGRAM + "/x.png", "projects/poimen/links/out.png",
                "projects/poimen/links/other-project.png", "projects/poimen/links/out-dir/outside.png",
                "projects/poimen/links/in-dir/ferris.png", "projects/poimen/links/pipe.png")) {
            HttpResponse<byte[]> r = get(path);
            assertThat(r.statusCode()).as(path).isEqualTo(404);
            assertThat(json(r).toString().replace(path, "P")).as(path)
                    .isEqualTo(json(none).toString().replace(missing, "P"));
        }
        assertThat(get("projects/rust-guide/assets/ferris.png").statusCode()).as("the link's target itself")
                .isEqualTo(200);
    }

    @Test
    void notesPolicyFilesAndOtherTypesAreNotAttachmentsAndUnsafePathsAre400() throws Exception {
        write("projects/poimen/attachments/page.html", "<script>alert(1)</script>".getBytes(StandardCharsets.UTF_8));
        for (String path : List.of("projects/poimen/index.md", "projects/poimen/_access.yaml",
                "projects/poimen/attachments/page.html", "projects/poimen/attachments/", "README")) {
            HttpResponse<byte[]> r = get(path);
            assertThat(r.statusCode()).as(path).isEqualTo(404);
            assertThat(json(r).path("message").asText()).as(path)
                    .isEqualTo("not an attachment the hub serves (png, jpg, jpeg, gif, webp, svg, pdf): " + path);
        }
        for (String path : List.of("../outside.png", "projects/poimen/../../x.png", "%252e%252e/x.png",
                "/etc/x.png", "projects\\poimen\\a.png", "")) {
            HttpResponse<byte[]> r = get(path);
            assertThat(r.statusCode()).as(path).isEqualTo(400);
            assertThat(json(r).path("error").asText()).as(path).isEqualTo("bad_path");
        }
        HttpResponse<byte[]> post = http.send(HttpRequest.newBuilder(URI.create(base()
                + "/memory/vault/attachment?path=" + DIAGRAM)).POST(HttpRequest.BodyPublishers.ofString("{}"))
                .header("Content-Type", "application/json").build(), HttpResponse.BodyHandlers.ofByteArray());
        assertThat(post.statusCode()).isEqualTo(405);
        assertThat(json(post).path("error").asText()).isEqualTo("method_not_allowed");
        assertThat(post.headers().firstValue("Allow")).hasValue("GET,HEAD");
    }

    /** The cap is 20 MiB by default: a file of exactly that size streams whole, one byte more is 413. */
    @Test
    void aFileOverTheSizeCapIs413AndOneAtTheCapStreamsWhole() throws Exception {
        long cap = 20L * 1024 * 1024;
        for (long size : new long[] {cap, cap + 1}) {
            Path big = VAULT.resolve("projects/poimen/attachments/big-" + size + ".png");
            added.add(big);
            try (RandomAccessFile f = new RandomAccessFile(big.toFile(), "rw")) {
                f.setLength(size); // sparse: no disk used
            }
        }
        HttpResponse<java.io.InputStream> whole = http.send(HttpRequest.newBuilder(URI.create(base()
                        + "/memory/vault/attachment?path=projects/poimen/attachments/big-" + cap + ".png")).build(),
                HttpResponse.BodyHandlers.ofInputStream());
        assertThat(whole.statusCode()).isEqualTo(200);
        assertThat(whole.headers().firstValueAsLong("Content-Length")).hasValue(cap);
        try (java.io.InputStream in = whole.body()) {
            assertThat(in.transferTo(java.io.OutputStream.nullOutputStream())).isEqualTo(cap);
        }
        HttpResponse<byte[]> over = get("projects/poimen/attachments/big-" + (cap + 1) + ".png");
        assertThat(over.statusCode()).isEqualTo(413);
        assertThat(json(over).path("error").asText()).isEqualTo("attachment_too_large");
        assertThat(json(over).path("message").asText()).contains("poimen.vault.max-attachment-bytes", "20971520");
    }
}
