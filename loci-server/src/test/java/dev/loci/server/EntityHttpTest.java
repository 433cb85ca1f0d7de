package dev.loci.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.server.ServerFixture.Reply;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Entities, capture and the unified review queue through real HTTP, and their bad input. */
class EntityHttpTest {
  private static final String G = "/v1/ns/acme.pump";

  @TempDir Path dir;

  private static JsonNode expect(Reply r, int status) {
    assertThat(r.status()).as(r.body()).isEqualTo(status);
    return r.json();
  }

  private static void problem(Reply r, String field) {
    assertThat(r.status()).as(r.body()).isEqualTo(400);
    assertThat(r.json().path("field").asText()).as(r.body()).isEqualTo(field);
  }

  @Test
  void capture_queueSideBySide_promoteBothKinds_conflictInHealth_context() {
    try (ServerFixture http = new ServerFixture(dir)) {
      JsonNode x =
          expect(
              http.post(
                  G + "/interactions?target=both",
                  "{\"text\":\"I prefer metric units. Rated pressure = 16 bar\","
                      + "\"speaker\":\"dana\",\"time\":\"2026-04-06T21:30:00Z\"}"),
              201);
      String interaction = x.get("interaction").get("id").asText();
      assertThat(x.get("candidates").findValuesAsText("kind")).contains("memory", "entity");
      JsonNode queue = expect(http.get(G + "/candidates"), 200).get("items");
      assertThat(queue.findValuesAsText("source")).containsOnly("interaction:" + interaction);
      assertThat(queue.findValuesAsText("rule")).contains("preference_sentence", "fact_value");
      String entity = null;
      for (JsonNode c : queue) {
        if (c.get("kind").asText().equals("entity")) {
          entity = c.get("id").asText();
        }
      }
      JsonNode promoted = expect(http.post(G + "/candidates/" + entity + "/promote", ""), 200);
      assertThat(promoted.get("entity").get("status").asText()).isEqualTo("active");
      assertThat(expect(http.get(G + "/entities?type=parameter&status=active"), 200).get("items"))
          .hasSize(1);

      JsonNode other =
          expect(
              http.post(
                  G + "/entities",
                  "{\"type\":\"Parameter\",\"name\":\"rated pressure\",\"fields\":{\"value\":\"25"
                      + " bar\"},\"status\":\"active\"}"),
              201);
      assertThat(other.get("conflicts")).hasSize(1);
      assertThat(expect(http.get("/health"), 200).get("open_conflicts_count").asInt()).isEqualTo(1);

      String otherId = other.get("entity").get("id").asText();
      JsonNode related =
          expect(
              http.post(
                  G + "/entities/" + entity + "/relationships",
                  "{\"type\":\"contradicts\",\"target\":\"" + otherId + "\"}"),
              200);
      assertThat(related.get("relationships")).hasSize(1);
      JsonNode full = expect(http.get(G + "/entities/" + entity), 200);
      assertThat(full.get("history")).hasSize(3);
      assertThat(full.get("fields").get("value").get("version").asInt()).isEqualTo(1);

      JsonNode again =
          expect(http.post(G + "/interactions/" + interaction + "/extract?target=memory", ""), 200);
      assertThat(again.get("candidates").findValuesAsText("kind")).containsOnly("memory");

      JsonNode pack =
          expect(
              http.post(G + "/context", "{\"prompt\":\"rated pressure\",\"budget_tokens\":500}"),
              200);
      assertThat(pack.get("slots").get(3).get("name").asText()).isEqualTo("entities");
      assertThat(pack.get("used_tokens").asInt()).isLessThanOrEqualTo(500);
    }
  }

  @Test
  void extractionWave_fromIngestedDocuments_writesCandidatesWithChunkProvenanceAndAReport() {
    try (ServerFixture http = new ServerFixture(dir)) {
      Reply ingested =
          http.post(
              G + "/ingest",
              "{\"pack\":\"markdown:contract\",\"documents\":[{\"path\":\"spec.md\",\"text\":\"# Spec\\n\\n## Constraints\\n\\n"
                  + "- Noise must not exceed 60 dB\\n\\n## Parameters\\n\\nFlow rate = 40 l/min\\n\"}]}");
      assertThat(ingested.status()).as(ingested.body()).isBetween(200, 201);
      JsonNode wave =
          expect(http.post(G + "/extraction-waves", "{\"documents\":[\"spec.md\"]}"), 200);
      assertThat(wave.get("candidates")).isNotEmpty();
      assertThat(wave.get("candidates").findValuesAsText("source_chunk")).isNotEmpty();
      assertThat(
              dir.resolve("extraction-reports")
                  .resolve(wave.get("wave").asText())
                  .resolve("report.json"))
          .exists();
      problem(http.post(G + "/extraction-waves", "{\"documents\":[\"nope.md\"]}"), "documents");
    }
  }

  @Test
  void entityNamingSubjects_carriesThem_andBadSubjectIdsNameTheField() {
    try (ServerFixture http = new ServerFixture(dir)) {
      JsonNode w =
          expect(
              http.post(
                  G + "/entities",
                  "{\"type\":\"decision\",\"name\":\"Dana leads the pump review\","
                      + "\"subject_ids\":[\"dana\"]}"),
              201);
      assertThat(w.get("entity").get("subject_ids").get(0).asText()).isEqualTo("dana");
      Reply bad =
          http.post(
              G + "/entities",
              "{\"type\":\"decision\",\"name\":\"x\",\"subject_ids\":[\"a\",\"a\"]}");
      assertThat(bad.status()).as(bad.body()).isEqualTo(400);
      assertThat(bad.json().path("field").asText()).startsWith("subject_ids");
      assertThat(expect(http.get(G + "/entities"), 200).get("items")).hasSize(1);
    }
  }

  @Test
  void badInput_namesTheField_andWritesNothing() {
    try (ServerFixture http = new ServerFixture(dir)) {
      problem(http.post(G + "/entities", "{\"type\":\"widget\",\"name\":\"x\"}"), "type");
      problem(http.post(G + "/entities", "{\"type\":\"fact\",\"name\":\"  \"}"), "name");
      problem(
          http.post(G + "/entities", "{\"type\":\"fact\",\"name\":\"x\",\"status\":\"done\"}"),
          "status");
      problem(
          http.post(G + "/entities", "{\"type\":\"fact\",\"name\":\"x\",\"fields\":[1]}"),
          "fields");
      problem(http.post(G + "/memories", "{\"type\":\"knowledge\",\"content\":\"\"}"), "content");
      problem(http.post(G + "/interactions", "{\"text\":\"\",\"speaker\":\"d\"}"), "text");
      problem(
          http.post(G + "/interactions", "{\"text\":\"hi\",\"speaker\":\"d\",\"time\":\"noon\"}"),
          "time");
      problem(
          http.post(G + "/interactions?target=all", "{\"text\":\"hi\",\"speaker\":\"d\"}"),
          "target");
      assertThat(expect(http.get(G + "/candidates"), 200).get("items")).isEmpty();
      assertThat(expect(http.get(G + "/entities"), 200).get("items")).isEmpty();

      String id =
          expect(http.post(G + "/entities", "{\"type\":\"fact\",\"name\":\"x\"}"), 201)
              .get("entity")
              .get("id")
              .asText();
      expect(http.post(G + "/candidates/" + id + "/reject", "{\"reason\":\"wrong\"}"), 200);
      problem(http.post(G + "/candidates/" + id + "/promote", ""), "status");
      assertThat(expect(http.get(G + "/entities/" + id), 200).get("status").asText())
          .isEqualTo("invalid");
      problem(
          http.post(
              G + "/entities/" + id + "/relationships", "{\"type\":\"owns\",\"target\":\"y\"}"),
          "type");
    }
  }
}
