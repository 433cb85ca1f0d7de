package dev.loci.pathway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import com.fasterxml.jackson.databind.node.ObjectNode;
import dev.loci.InvalidRequestException;
import dev.loci.LegalCapability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.pathway.internal.PathwayJson;
import java.io.ByteArrayInputStream;
import java.io.InputStream;
import java.io.StringWriter;
import java.nio.charset.StandardCharsets;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.Iterator;
import java.util.List;
import java.util.Map;
import java.util.Optional;
import java.util.UUID;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * Storage interop (spec section 7): the Rust implementation's {@code state.json}. The fixture
 * {@code rust-state/state.json} is written in the Rust shape (serde field order, {@code null} for
 * absent options, f32 vectors): a two-version chain, a retired pathway and a legacy trace without
 * {@code trace_uid} or the section 2.5 fields.
 */
class RustStateInteropTest {
  static final Namespace NS = Namespace.of("lakehouse");

  @TempDir Path dir;
  Loci loci;
  PathwayMemory pathways;

  @BeforeEach
  void open() {
    loci = Loci.open(dir);
    pathways = PathwayMemory.of(loci);
  }

  @AfterEach
  void close() {
    loci.close();
  }

  static byte[] fixture() throws Exception {
    try (InputStream in =
        RustStateInteropTest.class.getResourceAsStream("/rust-state/state.json")) {
      return in.readAllBytes();
    }
  }

  String export() {
    StringWriter out = new StringWriter();
    pathways.exportRustState(NS, out);
    return out.toString();
  }

  @Test
  void import_readsEveryTrace_assignsLegacyUidsAndKeepsChainsAndRetirement() throws Exception {
    PathwayImportReport r = pathways.importRustState(NS, new ByteArrayInputStream(fixture()));

    assertThat(r.imported()).isEqualTo(4);
    assertThat(r.skipped()).isZero();
    assertThat(r.legacyAssigned()).isEqualTo(1);
    assertThat(r.redactions()).isZero();
    PathwayStats s = pathways.stats(NamespaceScope.exactly(NS));
    assertThat(s.pathways()).isEqualTo(3);
    assertThat(s.retiredPathways()).isEqualTo(1);
    assertThat(s.traces()).isEqualTo(4);
    assertThat(s.headTraces()).isEqualTo(3);

    PathwayTrace legacy =
        pathways
            .queryForHotswap(
                NamespaceScope.exactly(NS), "scrum_review", "README.md", Optional.empty())
            .get(0);
    assertThat(legacy.legacy()).isTrue();
    assertThat(UUID.fromString(legacy.traceUid()).version()).isEqualTo(7);
    assertThat(legacy.semanticFlags()).isEmpty();
    assertThat(
            pathways.listVersions(
                NS, "0196a1b2-0002-7000-8000-000000000002", new LegalCapability("test")))
        .extracting(PathwayTrace::version)
        .containsExactly(1, 2);
    assertThat(
            pathways.queryForHotswap(
                NamespaceScope.exactly(NS),
                "pr_audit",
                "crates/gateway",
                Optional.of("STUCK_RETRY")))
        .as("the retired pathway stays out of hot-swap")
        .isEmpty();
  }

  @Test
  void import_twice_skipsEverything_includingLegacyTraces() throws Exception {
    pathways.importRustState(NS, new ByteArrayInputStream(fixture()));
    long seq = loci.lastSeq();
    PathwayImportReport again = pathways.importRustState(NS, new ByteArrayInputStream(fixture()));

    assertThat(again.imported()).isZero();
    assertThat(again.skipped()).isEqualTo(4);
    assertThat(pathways.stats(NamespaceScope.exactly(NS)).traces()).isEqualTo(4);
    assertThat(loci.lastSeq()).as("a batch only for last_updated_at").isLessThanOrEqualTo(seq + 1);
  }

  @Test
  void roundTrip_everyTraceComesBackUnchanged() throws Exception {
    pathways.importRustState(NS, new ByteArrayInputStream(fixture()));
    JsonNode in = PathwayJson.MAPPER.readTree(fixture());
    JsonNode out = PathwayJson.MAPPER.readTree(export());

    assertThat(out.get("last_updated_at")).isEqualTo(in.get("last_updated_at"));
    assertThat(fieldNames(out.get("pathways"))).isEqualTo(fieldNames(in.get("pathways")));
    for (String id : fieldNames(in.get("pathways"))) {
      JsonNode inTraces = in.get("pathways").get(id);
      JsonNode outTraces = out.get("pathways").get(id);
      assertThat(outTraces.size()).isEqualTo(inTraces.size());
      for (int i = 0; i < inTraces.size(); i++) {
        ObjectNode expected = inTraces.get(i).deepCopy();
        ObjectNode actual = outTraces.get(i).deepCopy();
        if (!expected.has("trace_uid")) {
          // the legacy trace gains exactly what the import assigns: a uid and the marker
          assertThat(actual.remove("legacy").asBoolean()).isTrue();
          assertThat(actual.remove("trace_uid").asText()).isNotEmpty();
          for (String defaulted :
              List.of(
                  "version",
                  "parent_trace_uid",
                  "superseded_at",
                  "superseded_by_trace_uid",
                  "semantic_flags",
                  "type_hints_used",
                  "bug_fingerprints")) {
            actual.remove(defaulted);
          }
        }
        assertVectorsEqual(expected.remove("pathway_vec"), actual.remove("pathway_vec"));
        assertThat(actual).as("trace %s[%d]", id, i).isEqualTo(expected);
      }
    }
    // and a second round trip through a fresh store is byte-for-byte stable
    String first = export();
    loci.close();
    loci = Loci.open(dir.resolve("second"));
    pathways = PathwayMemory.of(loci);
    pathways.importRustState(NS, new ByteArrayInputStream(first.getBytes(StandardCharsets.UTF_8)));
    assertThat(export()).isEqualTo(first);
  }

  private static void assertVectorsEqual(JsonNode expected, JsonNode actual) {
    assertThat(actual.size()).isEqualTo(32);
    for (int i = 0; i < 32; i++) {
      assertThat(actual.get(i).floatValue())
          .as("pathway_vec[%d]", i)
          .isEqualTo(expected.get(i).floatValue());
    }
  }

  private static List<String> fieldNames(JsonNode node) {
    List<String> names = new ArrayList<>();
    for (Iterator<Map.Entry<String, JsonNode>> it = node.fields(); it.hasNext(); ) {
      names.add(it.next().getKey());
    }
    return names;
  }

  @Test
  void import_badTrace_namesBucketPositionAndField_andStoresNothing() throws Exception {
    ObjectNode state = (ObjectNode) PathwayJson.MAPPER.readTree(fixture());
    String id = fieldNames(state.get("pathways")).get(0);
    ((ObjectNode) state.get("pathways").get(id).get(1)).putArray("semantic_flags").add("NotAFlag");
    byte[] bad = state.toString().getBytes(StandardCharsets.UTF_8);

    assertThatThrownBy(() -> pathways.importRustState(NS, new ByteArrayInputStream(bad)))
        .isInstanceOf(InvalidRequestException.class)
        .extracting(e -> ((InvalidRequestException) e).field())
        .isEqualTo("pathways." + id + "[1].semantic_flags");
    assertThat(pathways.stats(NamespaceScope.exactly(NS)).traces()).isZero();
  }

  @Test
  void import_malformedOrWrongShape_namesTheProblem() {
    assertThatThrownBy(() -> pathways.importRustState(NS, stream("{\"pathways\": {\"x\": [{")))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageStartingWith("state:");
    assertThatThrownBy(() -> pathways.importRustState(NS, stream("{\"pathways\": [1]}")))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageStartingWith("pathways:");
    assertThatThrownBy(
            () ->
                pathways.importRustState(
                    NS, stream("{\"last_updated_at\":\"2026-01-01T00:00:00Z\"}")))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageStartingWith("pathways:");
    String wrongBucket =
        "{\"pathways\":{\""
            + "0".repeat(64)
            + "\":[{\"task_class\":\"t\",\"file_path\":\"a/b\","
            + "\"created_at\":\"2026-01-01T00:00:00Z\",\"pathway_id\":\""
            + "1".repeat(64)
            + "\"}]}}";
    assertThatThrownBy(() -> pathways.importRustState(NS, stream(wrongBucket)))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("[0].pathway_id");
  }

  @Test
  void import_redactsByTheNamespacePolicy() {
    String withPii =
        "{\"pathways\":{\""
            + PathwayIdentity.pathwayId("t", "a/b", Optional.empty())
            + "\":[{\"trace_uid\":\"u-1\",\"task_class\":\"t\",\"file_path\":\"a/b\","
            + "\"created_at\":\"2026-01-01T00:00:00Z\",\"reducer_summary\":\"mail a@b.io\"}]}}";
    PathwayImportReport r = pathways.importRustState(NS, stream(withPii));
    assertThat(r.redactions()).isEqualTo(1);
    assertThat(pathways.get(NS, "u-1").reducerSummary()).isEqualTo("mail [email]");
  }

  private static InputStream stream(String s) {
    return new ByteArrayInputStream(s.getBytes(StandardCharsets.UTF_8));
  }
}
