package dev.loci.internal;

import static org.assertj.core.api.Assertions.assertThat;

import org.junit.jupiter.api.Test;

class TraceSubjectIdsTest {
  @Test
  void subjectIds_topLevelStringsOnly_skippingEverythingElse() {
    assertThat(
            TraceSubjects.subjectIds(
                "{\"a\":{\"subject_ids\":[\"nested\"]},\"subject_ids\":[\"p1\",7,{\"x\":1},\"p2\"],"
                    + "\"b\":[\"subject_ids\"]}"))
        .containsExactly("p1", "p2");
    assertThat(TraceSubjects.subjectIds("[\"subject_ids\"]")).isEmpty();
    assertThat(TraceSubjects.subjectIds("\"subject_ids\"")).isEmpty();
    assertThat(TraceSubjects.subjectIds("{\"subject_ids\":\"p1\"}")).isEmpty();
    assertThat(TraceSubjects.subjectIds("{\"note\":1}")).isEmpty();
  }
}
