package dev.loci.subjects.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.Namespace;
import dev.loci.subjects.internal.SubjectIndex.Rec;
import dev.loci.subjects.internal.SubjectIndex.Subject;
import java.time.Instant;
import java.util.List;
import org.junit.jupiter.api.Test;

class SubjectIndexTest {
  static final Namespace NS = Namespace.of("acme.hr");
  static final Instant T = Instant.parse("2026-01-02T03:04:05Z");

  @Test
  void forId_isTheSubjectOfTheIdsReference_rememberedUntilForgotten_andBounded() {
    SubjectIndex index = new SubjectIndex();

    Subject alice = index.forId("alice");

    assertThat(alice.ref).isEqualTo(SubjectIndex.ref("alice"));
    assertThat(index.get(SubjectIndex.ref("alice"))).isSameAs(alice);
    assertThat(index.forId("alice")).isSameAs(alice);
    assertThat(index.rememberedIds()).isEqualTo(1);

    index.forgetIds();
    assertThat(index.rememberedIds()).isZero();
    assertThat(index.forId("alice")).as("found again by its reference").isSameAs(alice);

    for (int i = 0; i <= SubjectIndex.ID_CACHE; i++) {
      index.forId("s" + i);
    }
    assertThat(index.rememberedIds()).isLessThanOrEqualTo(SubjectIndex.ID_CACHE);
    assertThat(index.forId("s7").ref).isEqualTo(SubjectIndex.ref("s7"));
  }

  @Test
  void aSubjectThatJoinsARecordLater_holdsTheVersionsFromTheBatchThatNamedIt() {
    SubjectIndex index = new SubjectIndex();
    Subject alice = index.getOrAdd("a");
    Subject bob = index.getOrAdd("b");
    Subject carol = index.getOrAdd("c");
    Rec r = index.findOrAdd("traces", "trace", NS, "t1");

    r.hold(alice, 5);
    r.version(5, T);
    r.hold(alice, 9); // already held: nothing changes
    r.hold(bob, 9);
    r.version(9, T);
    r.version(9, T); // a second event of the same batch
    r.hold(carol, 9); // named by the second event of batch 9: holds it too
    r.version(12, T.plusSeconds(1));

    assertThat(r.versionsOf(alice)).containsExactly(5L, 9L, 12L);
    assertThat(r.versionsOf(bob)).containsExactly(9L, 12L);
    assertThat(r.versionsOf(carol)).containsExactly(9L, 12L);
    assertThat(r.versionsOf(index.getOrAdd("d"))).isEmpty();
    assertThat(r.last).isEqualTo(T.plusSeconds(1));
    assertThat(index.find("traces|acme.hr/t1")).isSameAs(r);
    assertThat(index.find("traces", "acme.hr/t1")).isSameAs(r);
    assertThat(index.refsOf("traces|acme.hr/t1")).containsExactly("a", "b", "c");
    assertThat(index.refsOf("traces|acme.hr/t2")).isEmpty();
  }

  @Test
  void restore_rebuildsSharedVersions_inWhicheverOrderTheSubjectsCome() {
    for (List<String> order : List.of(List.of("a", "b"), List.of("b", "a"))) {
      SubjectIndex index = new SubjectIndex();
      for (String ref : order) {
        long[] held = ref.equals("a") ? new long[] {5, 9, 12} : new long[] {9, 12};
        index.restore(index.getOrAdd(ref), "traces", "trace", NS, "t1", held, T);
      }
      Rec r = index.find("traces", "acme.hr", "t1");

      assertThat(r.versionsOf(index.get("a"))).as("order %s", order).containsExactly(5L, 9L, 12L);
      assertThat(r.versionsOf(index.get("b"))).as("order %s", order).containsExactly(9L, 12L);
      assertThat(index.get("a").records).containsExactly(r);
      r.version(20, T);
      assertThat(r.versionsOf(index.get("b"))).containsExactly(9L, 12L, 20L);
    }
  }

  @Test
  void remove_dropsTheRecordFromTheIndex() {
    SubjectIndex index = new SubjectIndex();
    Rec r = index.findOrAdd("traces", "trace", NS, "t1");
    r.hold(index.getOrAdd("a"), 1);

    index.remove(r);

    assertThat(index.find("traces", "acme.hr", "t1")).isNull();
    assertThat(index.findOrAdd("traces", "trace", NS, "t1")).isNotSameAs(r);
  }
}
