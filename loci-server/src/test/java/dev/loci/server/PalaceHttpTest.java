package dev.loci.server;

import static org.assertj.core.api.Assertions.assertThat;

import com.fasterxml.jackson.databind.JsonNode;
import dev.loci.server.ServerFixture.Reply;
import java.nio.file.Path;
import java.util.Optional;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The memory palace over HTTP: spaces, memories, feedback, recall fields, consolidation, sweep. */
class PalaceHttpTest {
  private static final String NS = "/v1/ns/ops";
  private static final String RUNBOOK =
      "# Escalation\\n\\n3. Restart the ledger consumer group.\\n"
          + "4. If the restart does not clear the queue, escalate to step 5.\\n"
          + "5. Fail over to the standby ledger region.\\n";

  @TempDir Path dir;
  ServerFixture http;

  @BeforeEach
  void start() {
    http = new ServerFixture(dir);
    Reply ingest =
        post(
            "/ingest",
            "{\"pack\":\"markdown:runbook\",\"documents\":[{\"path\":\"02_payments_runbook.md\","
                + "\"text\":\""
                + RUNBOOK
                + "\"}]}");
    assertThat(ingest.status()).as(ingest.body()).isEqualTo(200);
  }

  @AfterEach
  void stop() {
    http.close();
  }

  private Reply post(String path, String body) {
    return http.send("POST", NS + path, Optional.empty(), Optional.of(body));
  }

  private Reply get(String path) {
    return http.send("GET", NS + path, Optional.empty(), Optional.empty());
  }

  @Test
  void spacesAndMemories_showTypeSpaceAndLifecycle() {
    Reply spaces = get("/spaces");
    assertThat(spaces.status()).as(spaces.body()).isEqualTo(200);
    assertThat(spaces.json().get("items").findValuesAsText("id"))
        .containsExactly("02_payments_runbook", "02_payments_runbook:escalation");
    Reply space = get("/spaces/02_payments_runbook:escalation");
    assertThat(space.json().get("memories").findValuesAsText("id"))
        .contains("02_payments_runbook:3", "02_payments_runbook:5");
    Reply m = get("/memories-palace/02_payments_runbook:4");
    assertThat(m.status()).as(m.body()).isEqualTo(200);
    assertThat(m.json().get("type").asText()).isEqualTo("semantic");
    assertThat(m.json().get("space_id").asText()).isEqualTo("02_payments_runbook:escalation");
    assertThat(m.json().get("lifecycle_state").asText()).isEqualTo("encoded");
    HttpApiTest.assertProblem(get("/spaces/nowhere"), 404, "not-found");
    HttpApiTest.assertProblem(get("/memories-palace/nope"), 404, "not-found");
  }

  @Test
  void feedbackRoute_thenRecall_replaysRouteAndTracesActivation() {
    Reply f =
        post(
            "/feedback",
            "{\"node_ids\":[\"02_payments_runbook:4\"],\"route\":[\"02_payments_runbook:4\","
                + "\"02_payments_runbook:5\"],\"useful\":true}");
    assertThat(f.status()).as(f.body()).isEqualTo(200);
    assertThat(f.json().get("route").asText()).startsWith("route:");
    assertThat(f.json().get("transitions").findValuesAsText("to")).contains("active");
    Reply r =
        post(
            "/recall",
            "{\"query\":\"restart does not clear the queue\",\"mode\":\"activation_spreading\","
                + "\"k\":3,\"reinforce\":true}");
    assertThat(r.status()).as(r.body()).isEqualTo(200);
    JsonNode body = r.json();
    assertThat(body.get("routes").findValuesAsText("id"))
        .containsExactly(f.json().get("route").asText());
    assertThat(body.get("retrieved_memories")).isNotEmpty();
    assertThat(body.get("activation_trace")).isNotEmpty();
    assertThat(body.get("activation_trace").get(0).get("is_seed").asBoolean()).isTrue();
    assertThat(body.get("activation_snapshot")).isEqualTo(body.get("activation"));
    assertThat(body.get("reinforced").get("used")).isNotEmpty();
  }

  @Test
  void badInput_namesTheField_andChangesNothing() {
    Reply noIds = post("/feedback", "{\"useful\":true}");
    HttpApiTest.assertProblem(noIds, 400, "invalid-field");
    assertThat(noIds.json().get("field").asText()).isEqualTo("node_ids");
    Reply missing = post("/feedback", "{\"node_ids\":[\"ghost\"]}");
    HttpApiTest.assertProblem(missing, 404, "not-found");
    assertThat(missing.json().get("field").asText()).isEqualTo("node_ids[0]");
    Reply reinforce = post("/recall", "{\"query\":\"queue\",\"reinforce\":\"yes\"}");
    HttpApiTest.assertProblem(reinforce, 400, "invalid-field");
    assertThat(reinforce.json().get("field").asText()).isEqualTo("reinforce");
    Reply undo = post("/consolidate", "{\"undo\":\"no-such-run\"}");
    HttpApiTest.assertProblem(undo, 404, "not-found");
    assertThat(get("/memories-palace/02_payments_runbook:4").json().get("lifecycle_state").asText())
        .isEqualTo("encoded");
  }

  @Test
  void consolidateAndSweep_answerTheirReports() {
    Reply c = post("/consolidate", "{}");
    assertThat(c.status()).as(c.body()).isEqualTo(200);
    assertThat(c.json().get("examined").asInt()).isZero();
    Reply s = http.send("POST", NS + "/lifecycle/sweep", Optional.empty(), Optional.empty());
    assertThat(s.status()).as(s.body()).isEqualTo(200);
    assertThat(s.json().get("examined").asInt()).isEqualTo(3);
    assertThat(s.json().get("transitions")).isEmpty();
  }
}
