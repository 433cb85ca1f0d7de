package dev.loci.recall.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import java.util.Optional;
import org.junit.jupiter.api.Test;

class SessionDiversityTest {
  /** Ids look like {@code S1:4}: session S1, turn 4; {@code x} has no session. */
  private static Optional<String> session(String id) {
    int colon = id.indexOf(':');
    return colon < 0 ? Optional.empty() : Optional.of(id.substring(0, colon));
  }

  @Test
  void rerank_capOfTwo_thirdItemOfASessionFollowsTheOtherSessions() {
    List<String> ranked = List.of("S1:1", "S1:2", "S1:3", "S2:1", "S1:4", "S3:1");

    assertThat(SessionDiversity.rerank(ranked, SessionDiversityTest::session, 2))
        .containsExactly("S1:1", "S1:2", "S2:1", "S3:1", "S1:3", "S1:4");
  }

  @Test
  void rerank_capOfOne_oneItemPerSessionFirst_itemsWithoutSessionNeverHeld() {
    List<String> ranked = List.of("S1:1", "x", "S1:2", "y", "S2:1");

    assertThat(SessionDiversity.rerank(ranked, SessionDiversityTest::session, 1))
        .containsExactly("S1:1", "x", "y", "S2:1", "S1:2");
  }

  @Test
  void rerank_noCap_unchanged() {
    List<String> ranked = List.of("S1:1", "S1:2", "S1:3");

    assertThat(SessionDiversity.rerank(ranked, SessionDiversityTest::session, 0)).isSameAs(ranked);
  }
}
