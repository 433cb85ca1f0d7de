package dev.loci.server;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import dev.loci.server.spi.HttpProblem;
import dev.loci.server.spi.JsonBody;
import java.nio.file.Files;
import java.nio.file.Path;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The [limits] table of loci.toml and the JSON shape limits, each at its limit and one past. */
class RequestLimitsTest {
  @TempDir Path dir;

  private static final JsonBody.Limits TIGHT = new JsonBody.Limits(3, 5, 2);

  @Test
  void load_everyLimit_readsEachKey() throws Exception {
    Path file = dir.resolve("loci.toml");
    Files.writeString(
        file,
        """
        [limits]
        body_bytes = 1000
        json_depth = 7
        json_string_chars = 70
        json_array_items = 700
        tags_per_trace = 12
        ingest_bytes_per_document = 9000
        ingest_documents_per_request = 9
        ingest_units_per_document = 90
        ingest_edges_per_document = 900
        body_idle_ms = 2500
        body_min_bytes_per_second = 0
        recall_query_terms = 33
        body_wait_ms = 4000
        """);
    RequestLimits l = ConfigFile.load(file).limits();
    assertThat(l)
        .isEqualTo(
            new RequestLimits(
                7,
                70,
                700,
                12,
                new dev.loci.recall.IngestLimits(9000, 9, 90, 900),
                2500,
                0,
                33,
                4000));
  }

  @Test
  void load_absentTable_defaults() {
    assertThat(ConfigFile.load(dir.resolve("none.toml")).limits())
        .isEqualTo(RequestLimits.defaults());
  }

  @Test
  void load_unknownOrOutOfRangeLimit_isRefusedNamingTheKey() throws Exception {
    Path file = dir.resolve("loci.toml");
    Files.writeString(file, "[limits]\njson_dept = 3\n");
    assertThatThrownBy(() -> ConfigFile.load(file)).hasMessageContaining("limits.json_dept");
    Files.writeString(file, "[limits]\ntags_per_trace = 257\n");
    assertThatThrownBy(() -> ConfigFile.load(file)).hasMessageContaining("limits.tags_per_trace");
    Files.writeString(file, "[limits]\ningest_units_per_document = 0\n");
    assertThatThrownBy(() -> ConfigFile.load(file))
        .hasMessageContaining("limits.ingest_units_per_document");
    Files.writeString(file, "[limits]\nrecall_query_terms = 0\n");
    assertThatThrownBy(() -> ConfigFile.load(file))
        .hasMessageContaining("limits.recall_query_terms");
    Files.writeString(file, "[limits]\njson_depth = \"deep\"\n");
    assertThatThrownBy(() -> ConfigFile.load(file)).hasMessageContaining("limits.json_depth");
  }

  @Test
  void parse_depthAtTheLimit_passes_andOnePast_is422NamingTheKey() {
    assertThat(JsonBody.parse("{\"a\":[{\"b\":1}]}", TIGHT).rawValue("a")).isPresent();
    assertThatThrownBy(() -> JsonBody.parse("{\"a\":[{\"b\":[1]}]}", TIGHT))
        .isInstanceOfSatisfying(
            HttpProblem.class,
            p -> {
              assertThat(p.status()).isEqualTo(422);
              assertThat(p.field()).contains("a");
              assertThat(p.detail()).contains("a[0].b").contains("limits.json_depth (3)");
            });
  }

  @Test
  void parse_stringAtTheLimit_passes_andOnePast_is422() {
    assertThat(JsonBody.parse("{\"a\":{\"k\":\"12345\"}}", TIGHT).rawValue("a")).isPresent();
    assertThatThrownBy(() -> JsonBody.parse("{\"a\":{\"k\":\"123456\"}}", TIGHT))
        .hasMessageContaining("a.k: a string of 6 characters is over limits.json_string_chars");
    assertThatThrownBy(() -> JsonBody.parse("{\"a\":{\"kkkkkk\":1}}", TIGHT))
        .hasMessageContaining("a member name of 6 characters");
  }

  @Test
  void parse_arrayAtTheLimit_passes_andOnePast_is422() {
    assertThat(JsonBody.parse("{\"a\":[1,2]}", TIGHT).rawValue("a")).contains("[1,2]");
    assertThatThrownBy(() -> JsonBody.parse("{\"a\":[1,2,3]}", TIGHT))
        .hasMessageContaining("a[2]: more than 2 items is over limits.json_array_items (2)");
  }

  @Test
  void parse_nestedDuplicateMember_isRefusedLikeATopLevelOne() {
    assertThatThrownBy(() -> JsonBody.parse("{\"c\":{\"x\":{\"a\":1,\"a\":2}}}"))
        .isInstanceOfSatisfying(
            HttpProblem.class,
            p -> {
              assertThat(p.status()).isEqualTo(400);
              assertThat(p.detail()).isEqualTo("body: member 'c.x.a' appears twice");
            });
    assertThat(JsonBody.parse("{\"c\":[{\"a\":1},{\"a\":2}]}").rawValue("c"))
        .contains("[{\"a\":1},{\"a\":2}]");
  }
}
