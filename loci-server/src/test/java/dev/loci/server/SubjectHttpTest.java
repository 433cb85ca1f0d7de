package dev.loci.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.server.ServerFixture.Reply;
import java.nio.file.Path;
import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** Subjects over HTTP: what a data-protection officer does with a legal token. */
class SubjectHttpTest {
  static final String SUBJECT = "cand-7";

  @TempDir Path dir;
  ServerFixture http;
  String writer;
  String globexWriter;
  String legal;
  String reader;

  @BeforeEach
  void start() {
    Path config = dir.resolve("conf").resolve("loci.toml");
    writer = token(config, Role.WRITER, "acme.*");
    reader = token(config, Role.READER, "acme.*");
    legal = token(config, Role.LEGAL, "acme.*");
    globexWriter = token(config, Role.WRITER, "globex");
    http = new ServerFixture(dir.resolve("data"), ConfigFile.load(config));
  }

  @AfterEach
  void stop() {
    http.close();
  }

  private static String token(Path config, Role role, String ns) {
    return ConfigFile.addToken(config, role, List.of(Grant.of(ns)), Optional.empty()).token();
  }

  private Reply send(String method, String path, String token, String body) {
    return http.send(method, path, Optional.of(token), Optional.ofNullable(body));
  }

  private String trace(String ns, String token, String note) {
    Reply r =
        send(
            "POST",
            "/v1/ns/" + ns + "/traces",
            token,
            "{\"content\":{\"subject_ids\":[\"" + SUBJECT + "\"],\"note\":\"" + note + "\"}}");
    assertThat(r.status()).as(r.body()).isEqualTo(201);
    return r.json().get("uid").asText();
  }

  @Test
  void manifest_audit_erase_endToEnd() {
    String a = trace("acme.hr", writer, "ALPHA-1");
    trace("acme.hr.eu", writer, "ALPHA-2");
    trace("globex", globexWriter, "GLOBEX-1");

    JsonNode m =
        send("GET", "/v1/ns/acme.hr/subjects/" + SUBJECT + "?subtree=true", reader, null).json();
    assertThat(m.get("records")).hasSize(2);
    assertThat(m.get("counts_by_kind").get("trace").asInt()).isEqualTo(2);
    assertThat(m.toString()).doesNotContain("ALPHA").doesNotContain("globex");

    // the audit export: the legal token's id recorded, globex's entry left out and counted
    Reply audit = send("GET", "/v1/ns/acme.hr/subjects/" + SUBJECT + "/audit", legal, null);
    assertThat(audit.status()).isEqualTo(200);
    assertThat(audit.header("Content-Type"))
        .hasValueSatisfying(v -> assertThat(v).startsWith("application/x-ndjson"));
    assertThat(audit.header("Loci-Audit-Omitted")).contains("1");
    List<String> lines = audit.body().lines().toList();
    assertThat(lines).hasSize(3);
    assertThat(lines.get(2)).contains("legal_read:audit_export").contains("\"actor\":\"legal:t-");
    assertThat(audit.body()).doesNotContain("ALPHA").doesNotContain(legal);

    HttpApiTest.assertProblem(
        send("POST", "/v1/ns/acme.hr/subjects/" + SUBJECT + "/erase", legal, "{}"),
        400,
        "invalid-field");
    HttpApiTest.assertProblem(
        send("POST", "/v1/ns/acme.hr/subjects/" + SUBJECT + "/erase", writer, "{\"reason\":\"r\"}"),
        403,
        "forbidden");

    Reply erased =
        send(
            "POST",
            "/v1/ns/acme.hr/subjects/" + SUBJECT + "/erase?subtree=true",
            legal,
            "{\"reason\":\"GDPR 17 ticket 9\"}");
    assertThat(erased.status()).as(erased.body()).isEqualTo(200);
    assertThat(erased.json().get("records").asInt()).isEqualTo(2);

    assertThat(send("GET", "/v1/ns/acme.hr/traces/" + a, reader, null).body())
        .doesNotContain("ALPHA");
    JsonNode after = send("GET", "/v1/ns/acme.hr/subjects/" + SUBJECT, reader, null).json();
    assertThat(after.get("records")).isEmpty();
    assertThat(after.get("erasure").get("records").asInt()).isEqualTo(2);
    // globex's record of the same subject is outside the legal token's reach and stays
    assertThat(send("GET", "/v1/ns/globex/traces?contains=GLOBEX-1", globexWriter, null).body())
        .contains("GLOBEX-1");
  }

  @Test
  void nodesAndIngestedDocuments_nameSubjects_andAreErasedWithThem() {
    Reply put =
        send(
            "PUT",
            "/v1/ns/acme.kb/nodes/n1",
            writer,
            "{\"type\":\"note\",\"content\":\"NODE-SECRET-1 about the candidate\","
                + "\"subject_ids\":[\""
                + SUBJECT
                + "\"]}");
    assertThat(put.status()).as(put.body()).isIn(200, 201);
    assertThat(put.json().toString()).contains("\"subject_ids\":[\"" + SUBJECT + "\"]");
    Reply ingest =
        send(
            "POST",
            "/v1/ns/acme.kb/ingest",
            writer,
            "{\"pack\":\"markdown:contract\",\"documents\":[{\"path\":\"c.md\","
                + "\"text\":\"# Terms\\n\\nNODE-SECRET-2 shall apply.\\n\","
                + "\"subject_ids\":[\""
                + SUBJECT
                + "\"]}]}");
    assertThat(ingest.status()).as(ingest.body()).isEqualTo(200);
    HttpApiTest.assertProblem(
        send(
            "PUT",
            "/v1/ns/acme.kb/nodes/n2",
            writer,
            "{\"type\":\"note\",\"content\":\"x\",\"subject_ids\":[\"a\",\"a\"]}"),
        400,
        "invalid-field");

    JsonNode m = send("GET", "/v1/ns/acme.kb/subjects/" + SUBJECT, reader, null).json();
    assertThat(m.get("counts_by_kind").get("node").asInt()).isGreaterThanOrEqualTo(2);

    Reply erased =
        send(
            "POST",
            "/v1/ns/acme.kb/subjects/" + SUBJECT + "/erase",
            legal,
            "{\"reason\":\"ticket 12\"}");
    assertThat(erased.status()).as(erased.body()).isEqualTo(200);
    assertThat(send("GET", "/v1/ns/acme.kb/nodes/n1", reader, null).body())
        .doesNotContain("NODE-SECRET")
        .contains("[erased]");
    JsonNode recalled =
        send("POST", "/v1/ns/acme.kb/recall", reader, "{\"query\":\"NODE-SECRET-2\"}").json();
    assertThat(recalled.get("items").toString()).doesNotContain("NODE-SECRET");
  }

  @Test
  void retention_policyAndSweep() {
    trace("acme.hr", writer, "ALPHA-1");
    HttpApiTest.assertProblem(
        send("PUT", "/v1/ns/acme/retention", legal, "{\"retain_days\":0}"), 400, "invalid-field");
    HttpApiTest.assertProblem(
        send("PUT", "/v1/ns/acme/retention", writer, "{\"retain_days\":5}"), 403, "forbidden");
    Reply put = send("PUT", "/v1/ns/acme/retention", legal, "{\"retain_days\":5}");
    assertThat(put.status()).as(put.body()).isEqualTo(200);
    assertThat(
            send("GET", "/v1/ns/acme.hr/retention", reader, null).json().get("retain_days").asInt())
        .isEqualTo(5);

    Reply hold =
        send(
            "PUT",
            "/v1/ns/acme.hr/subjects/" + SUBJECT + "/policy",
            legal,
            "{\"legal_hold\":true,\"legal_basis\":\"litigation 2026-41\"}");
    assertThat(hold.status()).as(hold.body()).isEqualTo(200);
    assertThat(hold.json().get("legal_hold").asBoolean()).isTrue();

    Reply sweep =
        send("POST", "/v1/ns/acme/retention/sweep?subtree=true", legal, "{\"dry_run\":true}");
    assertThat(sweep.status()).as(sweep.body()).isEqualTo(200);
    assertThat(sweep.json().get("expired")).isEmpty(); // nothing is 5 days old yet
  }
}
