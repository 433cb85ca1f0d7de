package dev.loci.pathway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.InvalidRequestException;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.pathway.internal.PathwayJson;
import dev.loci.pathway.internal.PathwayLayer;
import java.nio.file.Files;
import java.nio.file.Path;
import java.util.List;
import java.util.stream.Stream;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;
import org.junit.jupiter.params.ParameterizedTest;
import org.junit.jupiter.params.provider.ValueSource;

/** PII redaction before persisting (spec section 6.3). */
class RedactionTest {
  static final Namespace NS = Namespace.of("acme.staffing");

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

  PathwayWrite insert(Namespace ns, String summary, String verdict) {
    return pathways.insert(
        ns,
        PathwayTrace.builder("staffing.fill", "jobs/42/req.md")
            .reducerSummary(summary)
            .finalVerdict(verdict));
  }

  @Test
  void defaults_redactEmailPhoneAndCandidateId_withTypedMarkersAndACount() {
    PathwayWrite w =
        insert(
            NS,
            "Reached jane.doe+jobs@example.co.uk and +1 (555) 123-4567; candidate_id: C-10293 ok",
            "accepted CAND-00123, call 555.123.4567");

    assertThat(w.trace().reducerSummary())
        .isEqualTo("Reached [email] and [phone]; [candidate_id] ok");
    assertThat(w.trace().finalVerdict()).isEqualTo("accepted [candidate_id], call [phone]");
    assertThat(w.redactions()).isEqualTo(5);
    assertThat(pathways.stats(NamespaceScope.exactly(NS)).redactions()).isEqualTo(5);
  }

  @ParameterizedTest
  @ValueSource(
      strings = {
        "released 2026-05-03 at 08:07:38",
        "host 192.168.100.200 answered",
        "took 1500 ms over 12 rungs",
        "version 1.40.2",
        "trace 0196a1b2-0000-7000-8000-000000000002",
        "candidates were 3",
        "user@localhost"
      })
  void defaults_leaveOrdinaryTextAlone(String text) {
    PathwayWrite w = insert(NS, text, "accepted");
    assertThat(w.trace().reducerSummary()).isEqualTo(text);
    assertThat(w.redactions()).isZero();
  }

  @Test
  void theJournalNeverHoldsTheRedactedText() throws Exception {
    insert(NS, "mail jane@example.com", "candidate_id=77881");
    try (Stream<Path> files = Files.list(dir.resolve("journal"))) {
      for (Path f : files.toList()) {
        String text = Files.readString(f);
        assertThat(text).doesNotContain("jane@example.com").doesNotContain("77881");
      }
    }
  }

  @Test
  void revise_isRedactedToo() {
    PathwayTrace t = insert(NS, "fine", "accepted").trace();
    PathwayWrite w = pathways.reviseJson(NS, t.traceUid(), "{\"reducer_summary\":\"ask bo@x.io\"}");
    assertThat(w.trace().reducerSummary()).isEqualTo("ask [email]");
    assertThat(w.redactions()).isEqualTo(1);
  }

  @Test
  void policy_setOnANamespace_appliesToItsDescendants_andOffTurnsRedactionOff() {
    pathways.setRedactionPolicy(
        Namespace.of("acme"),
        RedactionPolicy.of(
            List.of(
                RedactionPolicy.EMAIL, new RedactionPolicy.Rule("ssn", "\\d{3}-\\d{2}-\\d{4}"))));
    PathwayWrite child = insert(NS, "ssn 123-45-6789, a@b.io, 555-123-4567", "ok");
    assertThat(child.trace().reducerSummary()).isEqualTo("ssn [ssn], [email], 555-123-4567");
    assertThat(child.redactions()).isEqualTo(2);

    pathways.setRedactionPolicy(NS, RedactionPolicy.off());
    assertThat(insert(NS, "a@b.io", "ok").trace().reducerSummary()).isEqualTo("a@b.io");
    assertThat(insert(Namespace.of("acme.other"), "a@b.io", "ok").trace().reducerSummary())
        .isEqualTo("[email]");
    assertThat(insert(Namespace.of("globex"), "555-123-4567", "ok").trace().reducerSummary())
        .isEqualTo("[phone]");
  }

  @Test
  void policyJson_namesTheBadRuleField() throws Exception {
    JsonNode bad =
        PathwayJson.MAPPER.readTree(
            "{\"rules\":[{\"name\":\"email\"},{\"name\":\"x\",\"regex\":\"([a\"}]}");
    assertThatThrownBy(() -> PathwayLayer.policyFromJson(bad))
        .isInstanceOf(InvalidRequestException.class)
        .extracting(e -> ((InvalidRequestException) e).field())
        .isEqualTo("rules[1].regex");
    JsonNode empty = PathwayJson.MAPPER.readTree("{\"rules\":[{\"name\":\"x\",\"regex\":\"a*\"}]}");
    assertThatThrownBy(() -> PathwayLayer.policyFromJson(empty))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("empty");
    JsonNode builtinAndCustom =
        PathwayJson.MAPPER.readTree(
            "{\"rules\":[{\"name\":\"phone\"},{\"name\":\"badge\",\"regex\":\"B-\\\\d+\"}]}");
    RedactionPolicy p = PathwayLayer.policyFromJson(builtinAndCustom);
    assertThat(p.rules())
        .containsExactly(RedactionPolicy.PHONE, new RedactionPolicy.Rule("badge", "B-\\d+"));
    assertThat(RedactionPolicy.fromJson(p.toJson())).isEqualTo(p);
    assertThat(PathwayWire.write(p)).isEqualTo(p.toJson());
  }

  @Test
  void policyJson_enabledMustBeBoolean_rulesMustBeObjects() {
    // a loose reading once took {"enabled": 0} for "off" and {"enabled": "no"} for "on"
    for (String enabled : List.of("0", "\"no\"", "null")) {
      assertThatThrownBy(() -> RedactionPolicy.fromJson("{\"enabled\":" + enabled + "}"))
          .isInstanceOf(InvalidRequestException.class)
          .extracting(e -> ((InvalidRequestException) e).field())
          .isEqualTo("enabled");
    }
    assertThatThrownBy(
            () -> RedactionPolicy.fromJson("{\"rules\":[{\"name\":\"email\"},\"phone\"]}"))
        .isInstanceOf(InvalidRequestException.class)
        .extracting(e -> ((InvalidRequestException) e).field())
        .isEqualTo("rules[1]");
    assertThatThrownBy(() -> RedactionPolicy.fromJson("{\"rules\":"))
        .isInstanceOf(InvalidRequestException.class)
        .extracting(e -> ((InvalidRequestException) e).field())
        .isEqualTo("policy");
    assertThat(RedactionPolicy.fromJson("{\"enabled\":false,\"rules\":[]}"))
        .isEqualTo(RedactionPolicy.off());
  }
}
