package dev.loci.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.server.ServerFixture.Reply;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** {@code POST ingest} running an ingestion wave by itself, through real HTTP. */
class IngestExtractionHttpTest {
  private static final String G = "/v1/ns/acme.pump";

  @TempDir Path dir;

  private static JsonNode expect(Reply r, int status) {
    assertThat(r.status()).as(r.body()).isEqualTo(status);
    return r.json();
  }

  private static java.util.List<String> kinds(JsonNode candidates) {
    java.util.List<String> out = new java.util.ArrayList<>();
    candidates.forEach(c -> out.add(c.get("kind").asText()));
    return out;
  }

  private static Reply put(ServerFixture http, String path, String json) {
    return http.send("PUT", path, java.util.Optional.empty(), java.util.Optional.of(json));
  }

  private static String ingest(String path, String constraint) {
    return "{\"pack\":\"markdown:contract\",\"documents\":[{\"path\":\""
        + path
        + "\",\"text\":\"# Spec\\n\\n## Constraints\\n\\n- "
        + constraint
        + "\\n\\n## Parameters\\n\\nFlow rate = 40 l/min\\n\"}]}";
  }

  @Test
  void offByDefault_onPerNamespace_theRequestOverrides_eachWaveReported() {
    try (ServerFixture http = new ServerFixture(dir)) {
      JsonNode plain = expect(http.post(G + "/ingest", ingest("a.md", "Noise must stay low")), 200);
      assertThat(plain.get("items")).hasSize(1);
      assertThat(plain.get("extraction_waves")).isEmpty();
      assertThat(expect(http.get(G + "/candidates"), 200).get("items")).isEmpty();
      assertThat(expect(http.get(G + "/governance"), 200).get("extract_on_ingest").asText())
          .isEqualTo("off");

      JsonNode set = expect(put(http, G + "/governance", "{\"extract_on_ingest\":\"both\"}"), 200);
      assertThat(set.get("extract_on_ingest").asText()).isEqualTo("both");
      assertThat(set.get("entities_canonical").asBoolean()).isFalse();
      JsonNode waved =
          expect(http.post(G + "/ingest", ingest("b.md", "Noise must not exceed 60 dB")), 200);
      assertThat(waved.get("extraction_waves")).hasSize(1);
      JsonNode wave = waved.get("extraction_waves").get(0);
      assertThat(wave.get("namespace").asText()).isEqualTo("acme.pump");
      assertThat(wave.get("chunks").asInt()).isPositive();
      assertThat(kinds(wave.get("candidates"))).contains("memory", "entity");
      assertThat(wave.get("candidates").findValuesAsText("source_chunk"))
          .isNotEmpty()
          .allMatch(c -> c.startsWith("b"));
      assertThat(
              dir.resolve("extraction-reports")
                  .resolve(wave.get("wave").asText())
                  .resolve("report.json"))
          .exists();
      int queued = expect(http.get(G + "/candidates"), 200).get("items").size();
      assertThat(queued).isPositive();

      // the request overrides the namespace: off runs no wave, entities only entity candidates
      JsonNode off =
          expect(
              http.post(
                  G + "/ingest?extract=off", ingest("c.md", "Vibration shall not exceed 2 g")),
              200);
      assertThat(off.get("extraction_waves")).isEmpty();
      expect(put(http, G + "/governance", "{\"extract_on_ingest\":\"off\"}"), 200);
      JsonNode only =
          expect(
              http.post(
                  G + "/ingest?extract=entities", ingest("d.md", "Pumps must be serviced yearly")),
              200);
      assertThat(kinds(only.get("extraction_waves").get(0).get("candidates")))
          .isNotEmpty()
          .containsOnly("entity");
    }
  }

  @Test
  void badExtract_namesTheField_andWritesNothing() {
    try (ServerFixture http = new ServerFixture(dir)) {
      Reply bad = http.post(G + "/ingest?extract=sometimes", ingest("a.md", "Noise must stay low"));
      assertThat(bad.status()).as(bad.body()).isEqualTo(400);
      assertThat(bad.json().get("field").asText()).isEqualTo("extract");
      assertThat(expect(http.get(G + "/nodes"), 200).get("items")).isEmpty();

      Reply setting = put(http, G + "/governance", "{\"extract_on_ingest\":\"sometimes\"}");
      assertThat(setting.status()).as(setting.body()).isEqualTo(400);
      assertThat(setting.json().get("field").asText()).isEqualTo("extract_on_ingest");
      Reply both =
          put(
              http,
              G + "/governance",
              "{\"entities_canonical\":true,\"extract_on_ingest\":\"sometimes\"}");
      assertThat(both.status()).as(both.body()).isEqualTo(400);
      JsonNode now = expect(http.get(G + "/governance"), 200);
      assertThat(now.get("extract_on_ingest").asText()).isEqualTo("off");
      assertThat(now.get("entities_canonical").asBoolean()).isFalse();
    }
  }
}
