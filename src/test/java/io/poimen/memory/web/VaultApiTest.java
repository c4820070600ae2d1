package io.poimen.memory.web;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.ObjectMapper;
import java.net.URI;
import java.net.http.HttpClient;
import java.net.http.HttpRequest;
import java.net.http.HttpResponse;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/** The read API over HTTP on the ingested example vault, as the local operator. */
class VaultApiTest extends HubWebTestBase {
    final HttpClient http = HttpClient.newHttpClient();
    final ObjectMapper json = new ObjectMapper();

    record Answer(int status, JsonNode body) {
    }

    Answer get(String pathAndQuery) throws Exception {
        HttpResponse<String> r = http.send(HttpRequest.newBuilder(URI.create(base() + pathAndQuery)).build(),
                HttpResponse.BodyHandlers.ofString());
        return new Answer(r.statusCode(), json.readTree(r.body()));
    }

    static List<String> texts(JsonNode array, String field) {
        List<String> out = new ArrayList<>();
        array.forEach(n -> out.add(field == null ? n.asText() : n.path(field).asText()));
        return out;
    }

    @Test
    void listsTheProjectScopeWithTitlesAndTimes() throws Exception {
        Answer a = get("/memory/vault?project=poimen");
        assertThat(a.status()).isEqualTo(200);
        List<String> paths = texts(a.body().get("files"), "path");
        assertThat(paths).contains("projects/poimen/tools/kubectl.md", "projects/poimen/index.md")
                .noneMatch(p -> p.startsWith("projects/rust-guide/"))
                .anyMatch(p -> p.startsWith("shared/"))
                .isSorted();
        JsonNode kubectl = a.body().get("files").get(paths.indexOf("projects/poimen/tools/kubectl.md"));
        assertThat(kubectl.get("title").asText()).isEqualTo("kubectl debugging commands");
        assertThat(kubectl.get("updated_at").asText()).matches("\\d{4}-\\d\\d-\\d\\dT.*Z");
    }

    @Test
    void servesANoteWithContentLinksAndBacklinks() throws Exception {
        Answer a = get("/memory/vault/file?path=projects/poimen/tools/kubectl.md");
        assertThat(a.status()).isEqualTo(200);
        JsonNode note = a.body();
        assertThat(note.get("content").asText()).startsWith("---\ntitle: kubectl debugging commands");
        assertThat(note.get("links")).anySatisfy(l -> {
            assertThat(l.get("raw").asText()).isEqualTo("../debugging/pod-crashes.md");
            assertThat(l.get("resolved_path").asText()).isEqualTo("projects/poimen/debugging/pod-crashes.md");
            assertThat(l.get("type").asText()).isNotBlank();
        });
        assertThat(texts(note.get("backlinks"), null)).contains("projects/poimen/debugging/pod-crashes.md");
    }

    @Test
    void keepsUnresolvedLinksWithoutAPath() throws Exception {
        List<JsonNode> unresolved = new ArrayList<>();
        for (JsonNode f : get("/memory/vault").body().get("files")) {
            get("/memory/vault/file?path=" + f.get("path").asText()).body().get("links").forEach(l -> {
                if (!l.has("resolved_path")) {
                    unresolved.add(l);
                }
            });
        }
        assertThat(unresolved).anySatisfy(l -> assertThat(l.get("raw").asText()).contains("observability-plan"));
    }

    @Test
    void answersJsonErrorsForUnknownAndBadPaths() throws Exception {
        Answer missing = get("/memory/vault/file?path=projects/poimen/nope.md");
        assertThat(missing.status()).isEqualTo(404);
        assertThat(missing.body().get("error").asText()).isEqualTo("not_found");
        for (String bad : List.of("../pom.xml", "projects/poimen/../../../pom.xml", "%252e%252e/pom.xml",
                "/etc/passwd", "projects%5Cpoimen%5Cindex.md")) {
            Answer a = get("/memory/vault/file?path=" + bad);
            assertThat(a.status()).as(bad).isEqualTo(400);
            assertThat(a.body().get("error").asText()).as(bad).isEqualTo("bad_path");
        }
        assertThat(get("/memory/vault?project=nope").status()).isEqualTo(404);
        assertThat(get("/memory/graph/reachable?project=nope").status()).isEqualTo(404);
        assertThat(get("/memory/graph/reachable").status()).isEqualTo(400);
        assertThat(get("/memory/graph/backlinks?path=shared/none.md").status()).isEqualTo(404);
    }

    @Test
    void listsProjectsAndSkills() throws Exception {
        JsonNode projects = get("/memory/projects").body().get("projects");
        assertThat(texts(projects, "name")).containsExactly("ml-training", "poimen", "rust-guide");
        assertThat(projects.get(1).get("index_path").asText()).isEqualTo("projects/poimen/index.md");
        assertThat(projects.get(1).get("notes").asInt()).isGreaterThan(5);
        JsonNode skills = get("/memory/skills").body().get("skills");
        assertThat(texts(skills, "name")).contains("SKILL-kubernetes-debugging", "SKILL-testing");
        assertThat(texts(skills, "path")).allMatch(p -> p.endsWith("/SKILL.md"));
    }

    @Test
    void answersGraphQueries() throws Exception {
        JsonNode reach = get("/memory/graph/reachable?project=poimen").body();
        assertThat(texts(reach.get("notes"), null)).contains("projects/poimen/index.md",
                "shared/skills/SKILL-kubernetes-debugging/SKILL.md").noneMatch(p -> p.contains("rust-guide"));
        JsonNode back = get("/memory/graph/backlinks?path=projects/poimen/tools/kubectl.md").body();
        assertThat(texts(back.get("backlinks"), null)).contains("projects/poimen/index.md");
    }

    @Test
    void servesTheWebUiAtTheRoot() throws Exception {
        HttpResponse<String> index = http.send(HttpRequest.newBuilder(URI.create(base() + "/")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(index.statusCode()).isEqualTo(200);
        assertThat(index.body()).contains("js/app.js", "id=\"project-select\"");
        HttpResponse<String> js = http.send(HttpRequest.newBuilder(URI.create(base() + "/js/markdown.js")).build(),
                HttpResponse.BodyHandlers.ofString());
        assertThat(js.headers().firstValue("Content-Type")).hasValueSatisfying(t -> assertThat(t).contains("javascript"));
    }
}
