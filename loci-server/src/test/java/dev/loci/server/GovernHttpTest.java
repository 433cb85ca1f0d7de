package dev.loci.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.server.ServerFixture.Reply;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Governed memory through real HTTP: the review walk-through, conflicts in /health, bad input. */
class GovernHttpTest {
  private static final String G = "/v1/ns/acme.alice";

  @TempDir Path dir;

  private static JsonNode expect(Reply r, int status) {
    assertThat(r.status()).as(r.body()).isEqualTo(status);
    return r.json();
  }

  private static String memory(String type, String content, String slot, String status) {
    return "{\"type\":\""
        + type
        + "\",\"content\":\""
        + content
        + "\",\"slot\":\""
        + slot
        + "\",\"subject_ids\":[\"alice\"],\"confidence\":0.7,\"status\":\""
        + status
        + "\"}";
  }

  @Test
  void walkThrough_candidatesReviewConflictsHealthStateAndContext() {
    try (ServerFixture http = new ServerFixture(dir)) {
      JsonNode proposed =
          expect(
              http.post(
                  G + "/memories", memory("preference", "Alice prefers tea", "drink", "candidate")),
              201);
      String tea = proposed.get("memory").get("id").asText();
      assertThat(proposed.get("memory").get("status").asText()).isEqualTo("candidate");
      JsonNode again =
          expect(
              http.post(
                  G + "/memories",
                  memory("preference", "alice prefers  TEA", "drink", "candidate")),
              201);
      assertThat(again.get("memory").get("id").asText()).isEqualTo(tea);
      assertThat(again.get("memory").get("reinforcements").asInt()).isEqualTo(1);
      assertThat(expect(http.get(G + "/candidates"), 200).get("items")).hasSize(1);

      JsonNode promoted = expect(http.post(G + "/candidates/" + tea + "/promote", ""), 200);
      assertThat(promoted.get("memory").get("status").asText()).isEqualTo("active");
      assertThat(promoted.get("memory").get("reason").asText()).isEqualTo("promoted by local");

      JsonNode coffee =
          expect(
              http.post(
                  G + "/memories", memory("preference", "Alice prefers coffee", "drink", "active")),
              201);
      assertThat(coffee.get("conflicts")).hasSize(1);
      String conflict = coffee.get("conflicts").get(0).get("id").asText();
      assertThat(expect(http.get("/health"), 200).get("open_conflicts_count").asInt()).isEqualTo(1);
      assertThat(expect(http.get(G + "/conflicts?status=open"), 200).get("items")).hasSize(1);

      String coffeeId = coffee.get("memory").get("id").asText();
      JsonNode resolved =
          expect(
              http.post(
                  G + "/conflicts/" + conflict + "/resolve", "{\"winner\":\"" + coffeeId + "\"}"),
              200);
      assertThat(resolved.get("status").asText()).isEqualTo("resolved");
      assertThat(expect(http.get("/health"), 200).get("open_conflicts_count").asInt()).isZero();
      JsonNode teaNow = expect(http.get(G + "/memories/" + tea), 200);
      assertThat(teaNow.get("status").asText()).isEqualTo("superseded");
      assertThat(teaNow.get("superseded_by").asText()).isEqualTo(coffeeId);
      assertThat(teaNow.get("history"))
          .extracting(v -> v.get("status").asText())
          .containsExactly("superseded", "active", "candidate", "candidate");

      expect(
          http.send(
              "PUT",
              G + "/project-state/deadline",
              Optional.empty(),
              Optional.of("{\"value\":\"1 March\"}")),
          200);
      assertThat(expect(http.get(G + "/project-state"), 200).get("items")).hasSize(1);

      JsonNode pack =
          expect(
              http.post(
                  G + "/context", "{\"prompt\":\"What does Alice drink?\",\"budget_tokens\":40}"),
              200);
      assertThat(pack.get("used_tokens").asInt()).isLessThanOrEqualTo(40);
      assertThat(pack.get("slots").get(0).get("items").get(0).get("text").asText())
          .isEqualTo("deadline: 1 March");
      assertThat(pack.toString()).contains("Alice prefers coffee").doesNotContain("prefers tea");
    }
  }

  @Test
  void badInput_namesTheFieldAndWritesNothing() {
    try (ServerFixture http = new ServerFixture(dir)) {
      String id =
          expect(
                  http.post(
                      G + "/memories",
                      memory("knowledge", "The pump is rated 5 kW", "pump", "candidate")),
                  201)
              .get("memory")
              .get("id")
              .asText();
      expect(http.post(G + "/memories/" + id + "/reject", "{\"reason\":\"wrong pump\"}"), 200);
      long before = http.server.loci().lastSeq();
      for (Object[] c :
          List.of(
              new Object[] {
                http.post(G + "/memories", "{\"type\":\"opinion\",\"content\":\"x\"}"), "type"
              },
              new Object[] {
                http.post(G + "/memories", "{\"type\":\"knowledge\",\"content\":\"\"}"), "content"
              },
              new Object[] {
                http.post(
                    G + "/memories", "{\"type\":\"knowledge\",\"content\":\"x\",\"confidence\":2}"),
                "confidence"
              },
              new Object[] {
                http.post(
                    G + "/memories",
                    "{\"type\":\"knowledge\",\"content\":\"x\",\"status\":\"trusted\"}"),
                "status"
              },
              new Object[] {http.post(G + "/memories/" + id + "/promote", ""), "status"},
              new Object[] {
                http.post(G + "/memories/" + id + "/reject", "{\"reason\":\"\"}"), "reason"
              },
              new Object[] {http.get(G + "/memories?type=opinion"), "type"},
              new Object[] {
                http.post(G + "/context", "{\"prompt\":\"x\",\"budget_tokens\":0}"), "budget_tokens"
              })) {
        Reply r = (Reply) c[0];
        HttpApiTest.assertProblem(r, 400, "invalid-field");
        assertThat(r.json().get("field").asText()).as(r.body()).isEqualTo(c[1]);
      }
      HttpApiTest.assertProblem(http.post(G + "/memories/nope/promote", ""), 404, "not-found");
      assertThat(http.server.loci().lastSeq()).isEqualTo(before);
    }
  }

  @Test
  void trustedWrites_needTheReviewerRole_aWriterOnlyProposes() {
    Path config = dir.resolve("loci.toml");
    String writer =
        ConfigFile.addToken(config, Role.WRITER, List.of(Grant.of("acme.*")), Optional.empty())
            .token();
    String reviewer =
        ConfigFile.addToken(config, Role.REVIEWER, List.of(Grant.of("acme.*")), Optional.empty())
            .token();
    try (ServerFixture http = new ServerFixture(dir.resolve("data"), ConfigFile.load(config))) {
      Reply refused =
          http.send(
              "POST",
              G + "/memories",
              Optional.of(writer),
              Optional.of(memory("identity", "Alice", "name", "active")));
      HttpApiTest.assertProblem(refused, 403, "forbidden");
      assertThat(refused.json().get("field").asText()).isEqualTo("status");
      String id =
          expect(
                  http.send(
                      "POST",
                      G + "/memories",
                      Optional.of(writer),
                      Optional.of(memory("identity", "Alice", "name", "candidate"))),
                  201)
              .get("memory")
              .get("id")
              .asText();
      HttpApiTest.assertProblem(
          http.send(
              "POST", G + "/candidates/" + id + "/promote", Optional.of(writer), Optional.empty()),
          403,
          "forbidden");
      HttpApiTest.assertProblem(
          http.send(
              "PUT", G + "/project-state/k", Optional.of(writer), Optional.of("{\"value\":\"v\"}")),
          403,
          "forbidden");
      JsonNode promoted =
          expect(
              http.send(
                  "POST",
                  G + "/candidates/" + id + "/promote",
                  Optional.of(reviewer),
                  Optional.empty()),
              200);
      String reviewerId =
          http.server.credentials().stream()
              .filter(c -> c.role() == Role.REVIEWER)
              .findFirst()
              .orElseThrow()
              .id();
      assertThat(promoted.get("memory").get("reason").asText())
          .isEqualTo("promoted by " + reviewerId);
    }
  }
}
