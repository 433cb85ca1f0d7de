package dev.loci.server;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.List;
import org.junit.jupiter.api.AfterAll;

/**
 * Coverage-guided fuzzing of the memory palace's routes over real HTTP: feedback, consolidate (and
 * its undo), the lifecycle sweep, and the spaces listings with fuzzed query strings. The invariants
 * are {@link RouteBodyFuzzing}'s. See docs/fuzzing.md.
 */
class PalaceBodiesFuzzTest {
  private static RouteBodyFuzzing fuzzing;

  private static RouteBodyFuzzing fuzzing() {
    if (fuzzing == null) {
      fuzzing =
          RouteBodyFuzzing.start(
              http -> {
                ServerFixture.Reply r =
                    http.send(
                        "PUT",
                        RouteBodyFuzzing.NS + "/nodes/n1",
                        java.util.Optional.empty(),
                        java.util.Optional.of("{\"type\":\"fact\",\"content\":\"tea at noon\"}"));
                org.assertj.core.api.Assertions.assertThat(r.status()).as(r.body()).isLessThan(300);
                return "n1";
              },
              node ->
                  List.of(
                      new RouteBodyFuzzing.Target("POST", RouteBodyFuzzing.NS + "/feedback", false),
                      new RouteBodyFuzzing.Target(
                          "POST", RouteBodyFuzzing.NS + "/consolidate", false),
                      new RouteBodyFuzzing.Target(
                          "POST", RouteBodyFuzzing.NS + "/lifecycle/sweep", false),
                      new RouteBodyFuzzing.Target("GET", RouteBodyFuzzing.NS + "/spaces", true),
                      new RouteBodyFuzzing.Target(
                          "GET", RouteBodyFuzzing.NS + "/spaces/" + node, true),
                      new RouteBodyFuzzing.Target(
                          "GET", RouteBodyFuzzing.NS + "/memories-palace/" + node, true)));
    }
    return fuzzing;
  }

  @AfterAll
  static void stop() {
    if (fuzzing != null) {
      fuzzing.close();
      fuzzing = null;
    }
  }

  @FuzzTest(maxDuration = "10s")
  void palaceRoutes_fuzzedBody_answeredWithout5xxAndRefusalsWriteNothing(FuzzedDataProvider data) {
    fuzzing().fuzz(data);
  }
}
