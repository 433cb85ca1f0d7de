package dev.loci.server;

import com.code_intelligence.jazzer.api.FuzzedDataProvider;
import com.code_intelligence.jazzer.junit.FuzzTest;
import java.util.List;
import org.junit.jupiter.api.AfterAll;

/**
 * Coverage-guided fuzzing of the governed-memory routes' bodies over real HTTP: memories (add and
 * each review action), candidates, entities (add, relationships, fields, review), interactions
 * (capture, extract), extraction waves and project state. The invariants are {@link
 * RouteBodyFuzzing}'s: no 5xx, a 4xx problem naming no Java type that writes nothing, linear time.
 * See docs/fuzzing.md.
 */
class GovernBodiesFuzzTest {
  private static RouteBodyFuzzing fuzzing;

  private static RouteBodyFuzzing fuzzing() {
    if (fuzzing == null) {
      fuzzing =
          RouteBodyFuzzing.start(
              http -> {
                String memory =
                    RouteBodyFuzzing.created(
                        http.post(
                            RouteBodyFuzzing.NS + "/memories",
                            "{\"type\":\"preference\",\"content\":\"Alice prefers tea\","
                                + "\"slot\":\"drink\",\"subject_ids\":[\"alice\"],"
                                + "\"confidence\":0.7,\"status\":\"candidate\"}"),
                        "memory");
                return memory;
              },
              memory -> {
                String m = RouteBodyFuzzing.NS + "/memories/" + memory;
                String c = RouteBodyFuzzing.NS + "/candidates/" + memory;
                String e = RouteBodyFuzzing.NS + "/entities/fuzz-entity";
                return List.of(
                    new RouteBodyFuzzing.Target("POST", RouteBodyFuzzing.NS + "/memories", false),
                    new RouteBodyFuzzing.Target("POST", m + "/reinforce", false),
                    new RouteBodyFuzzing.Target("POST", m + "/reject", false),
                    new RouteBodyFuzzing.Target("POST", m + "/invalidate", false),
                    new RouteBodyFuzzing.Target("POST", m + "/supersede", false),
                    new RouteBodyFuzzing.Target("POST", c + "/reject", false),
                    new RouteBodyFuzzing.Target("GET", RouteBodyFuzzing.NS + "/candidates", true),
                    new RouteBodyFuzzing.Target("POST", RouteBodyFuzzing.NS + "/entities", false),
                    new RouteBodyFuzzing.Target("POST", e + "/relationships", false),
                    new RouteBodyFuzzing.Target("POST", e + "/fields", false),
                    new RouteBodyFuzzing.Target("POST", e + "/reject", false),
                    new RouteBodyFuzzing.Target(
                        "POST", RouteBodyFuzzing.NS + "/interactions", false),
                    new RouteBodyFuzzing.Target(
                        "POST", RouteBodyFuzzing.NS + "/extraction-waves", false),
                    new RouteBodyFuzzing.Target(
                        "PUT", RouteBodyFuzzing.NS + "/project-state/release", false),
                    new RouteBodyFuzzing.Target("POST", RouteBodyFuzzing.NS + "/context", false),
                    new RouteBodyFuzzing.Target("PUT", RouteBodyFuzzing.NS + "/governance", false));
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
  void governRoutes_fuzzedBody_answeredWithout5xxAndRefusalsWriteNothing(FuzzedDataProvider data) {
    fuzzing().fuzz(data);
  }
}
