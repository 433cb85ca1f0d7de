package dev.loci.pathway;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.InvalidRequestException;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.pathway.internal.PathwayJson;
import dev.loci.pathway.internal.RedactionPolicyJson;
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

  @ParameterizedTest
  @ValueSource(
      strings = {
        "a",
        " ",
        "1",
        "a@",
        "a.",
        "-1",
        "cand-",
        "candidate_id ",
        "+1 (",
        "x@y.",
        "a1-b2."
      })
  void builtInRules_hostileText_linearWithinTheStepBudget(String unit) {
    // the same expressions as user rules run under the step budget (each character read at most
    // STEPS_PER_CHAR times, or the rule throws): finishing proves they are linear on these texts
    // (the old e-mail rule read a 60,000-character run of letters once per start position)
    String text = unit.repeat(200_000 / unit.length()) + " mail me at bob@example.com";
    RedactionPolicy budgeted =
        RedactionPolicy.of(
            List.of(
                new RedactionPolicy.Rule("mail", RedactionPolicy.EMAIL.regex()),
                new RedactionPolicy.Rule("tel", RedactionPolicy.PHONE.regex()),
                new RedactionPolicy.Rule("cand", RedactionPolicy.CANDIDATE_ID.regex())));
    assertThat(budgeted.redact(text).text()).endsWith("mail me at [mail]");
    assertThat(RedactionPolicy.defaults().redact(text).text()).endsWith("mail me at [email]");
  }

  @org.junit.jupiter.api.RepeatedTest(20)
  void builtInRules_triedWhereAMatchCanBegin_findExactlyWhatAFullScanFinds(
      org.junit.jupiter.api.RepetitionInfo rep) {
    long seed = 20261124L + rep.getCurrentRepetition();
    java.util.Random r = new java.util.Random(seed);
    String[] parts = {
      "bob@example.com",
      "a.b+c@mail.co.uk",
      "+1 (555) 123-4567",
      "555\n123-4567",
      "020 7946 0958",
      "candidate_id: abc123",
      "Cand #X9-77",
      "cand",
      "@",
      "(",
      "+",
      "1.2.3.4",
      "2026-11-24",
      " ",
      "\n",
      "word",
      "x@",
      "-",
      ".",
      "99",
      "a".repeat(63) + "@b.io",
      "a".repeat(64) + "@b.io",
      "a".repeat(65) + "@b.io",
      "x@y.",
      "a.b.c.d.e.f.g.h.i.j@",
      "CAND-id=Z9",
      "candidate-id\"7x1",
      "\u00e9",
      "_",
      "%",
      "\u212a",
      "1)",
      "+44 20 7946 0958",
      "(0)",
      "@a-b.c-d.museum"
    };
    StringBuilder text = new StringBuilder();
    for (int k = 0; k < 600; k++) {
      text.append(parts[r.nextInt(parts.length)]);
      if (r.nextInt(3) == 0) {
        text.append(' ');
      }
    }
    RedactionPolicy fullScan =
        RedactionPolicy.of(
            List.of(
                new RedactionPolicy.Rule("email", RedactionPolicy.EMAIL.regex() + "(?:)"),
                new RedactionPolicy.Rule("phone", RedactionPolicy.PHONE.regex() + "(?:)"),
                new RedactionPolicy.Rule(
                    "candidate_id", RedactionPolicy.CANDIDATE_ID.regex() + "(?:)")));
    assertThat(RedactionPolicy.defaults().redact(text.toString()))
        .as("seed %d", seed)
        .isEqualTo(fullScan.redact(text.toString()));
  }

  @Test
  void userRule_catastrophicBacktracking_refusedWhenSetNamingTheRule() {
    assertThatThrownBy(
            () -> RedactionPolicy.of(List.of(new RedactionPolicy.Rule("evil", "(a+)+b"))))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("'evil'")
        .hasMessageContaining("backtracks")
        .extracting(e -> ((InvalidRequestException) e).field())
        .isEqualTo("rules");
    RedactionPolicy bounded =
        RedactionPolicy.of(List.of(new RedactionPolicy.Rule("badge", "BADGE-[0-9]{4,8}")));
    assertThat(bounded.redact("my BADGE-12345 here").text()).isEqualTo("my [badge] here");
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
    assertThatThrownBy(() -> RedactionPolicyJson.fromJson(bad))
        .isInstanceOf(InvalidRequestException.class)
        .extracting(e -> ((InvalidRequestException) e).field())
        .isEqualTo("rules[1].regex");
    JsonNode empty = PathwayJson.MAPPER.readTree("{\"rules\":[{\"name\":\"x\",\"regex\":\"a*\"}]}");
    assertThatThrownBy(() -> RedactionPolicyJson.fromJson(empty))
        .isInstanceOf(InvalidRequestException.class)
        .hasMessageContaining("empty");
    JsonNode builtinAndCustom =
        PathwayJson.MAPPER.readTree(
            "{\"rules\":[{\"name\":\"phone\"},{\"name\":\"badge\",\"regex\":\"B-\\\\d+\"}]}");
    RedactionPolicy p = RedactionPolicyJson.fromJson(builtinAndCustom);
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
