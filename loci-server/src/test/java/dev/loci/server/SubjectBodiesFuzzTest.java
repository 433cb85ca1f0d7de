package dev.loci.server;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.List;
import org.junit.jupiter.api.AfterAll;

/**
 * Coverage-guided fuzzing of the data-subject routes over real HTTP: retention (set and sweep), a
 * subject's policy and erasure requests. The invariants are {@link RouteBodyFuzzing}'s; an accepted
 * erasure may write, a refused one must not. See docs/fuzzing.md.
 */
class SubjectBodiesFuzzTest {
  private static RouteBodyFuzzing fuzzing;

  private static RouteBodyFuzzing fuzzing() {
    if (fuzzing == null) {
      fuzzing =
          RouteBodyFuzzing.start(
              http -> {
                ServerFixture.Reply r =
                    http.post(
                        RouteBodyFuzzing.NS + "/traces",
                        "{\"content\":{\"subject_ids\":[\"alice\"],\"note\":\"call alice\"}}");
                org.assertj.core.api.Assertions.assertThat(r.status()).as(r.body()).isLessThan(300);
                return "alice";
              },
              subject -> {
                String s = RouteBodyFuzzing.NS + "/subjects/" + subject;
                return List.of(
                    new RouteBodyFuzzing.Target("PUT", RouteBodyFuzzing.NS + "/retention", false),
                    new RouteBodyFuzzing.Target(
                        "POST", RouteBodyFuzzing.NS + "/retention/sweep", true),
                    new RouteBodyFuzzing.Target("PUT", s + "/policy", false),
                    new RouteBodyFuzzing.Target("POST", s + "/erase", true),
                    new RouteBodyFuzzing.Target("GET", s, true));
              });
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
  void subjectRoutes_fuzzedBody_answeredWithout5xxAndRefusalsWriteNothing(FuzzedDataProvider data) {
    fuzzing().fuzz(data);
  }
}
