package dev.loci.subjects.internal;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.Durability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.Trace;
import dev.loci.subjects.AuditVerification;
import dev.loci.subjects.HeldRecord;
import dev.loci.subjects.Subjects;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import java.util.Optional;
import java.util.Set;
import java.util.concurrent.ConcurrentHashMap;
import java.util.concurrent.CountDownLatch;
import java.util.concurrent.TimeUnit;
import java.util.concurrent.atomic.AtomicBoolean;
import java.util.concurrent.atomic.AtomicReference;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * The index takes in writes off the write path (queued, applied by whoever touches it next): a
 * write is in every read that starts after it returns, while writers and readers race, and a
 * snapshot taken right after the writes holds them all.
 */
class SubjectIndexQueueTest {
  static final Namespace NS = Namespace.of("acme.queue");
  static final NamespaceScope ALL = NamespaceScope.of("acme.*");
  static final int WRITERS = 4;
  static final int PER_WRITER = 400;

  @TempDir Path dir;

  static String naming(String subject, int i) {
    return "{\"subject_ids\":[\"" + subject + "\"],\"note\":\"record " + i + "\"}";
  }

  @Test
  void concurrentWritersAndReaders_everyWriteIsInTheReadsAfterIt_andInASnapshotTakenAtOnce()
      throws Exception {
    Set<String> written = ConcurrentHashMap.newKeySet();
    try (Loci loci =
        Loci.builder().dataDir(dir).durability(Durability.none()).snapshotAfter(0).open()) {
      Subjects subjects = Subjects.of(loci);
      AtomicReference<Throwable> failed = new AtomicReference<>();
      AtomicBoolean writing = new AtomicBoolean(true);
      CountDownLatch start = new CountDownLatch(1);
      List<Thread> threads = new ArrayList<>();
      for (int w = 0; w < WRITERS; w++) {
        String subject = "queue-subject-" + w;
        threads.add(
            new Thread(
                () -> {
                  try {
                    start.await();
                    for (int i = 0; i < PER_WRITER; i++) {
                      Trace t = loci.traces().add(NS, naming(subject, i), List.of());
                      written.add(t.uid());
                      if (i % 20 == 0) {
                        // read-your-writes: this writer's record is in its subject's manifest
                        assertThat(subjects.manifest(subject, ALL).records())
                            .extracting(HeldRecord::id)
                            .contains(t.uid())
                            .hasSize(i + 1);
                      }
                    }
                  } catch (Throwable e) {
                    failed.compareAndSet(null, e);
                  }
                }));
      }
      for (int r = 0; r < 2; r++) {
        threads.add(
            new Thread(
                () -> {
                  try {
                    start.await();
                    while (writing.get()) {
                      for (int w = 0; w < WRITERS; w++) {
                        List<HeldRecord> held =
                            subjects.manifest("queue-subject-" + w, ALL).records();
                        assertThat(held).allSatisfy(h -> assertThat(h.versions()).hasSize(1));
                      }
                    }
                  } catch (Throwable e) {
                    failed.compareAndSet(null, e);
                  }
                }));
      }
      threads.forEach(Thread::start);
      start.countDown();
      for (Thread t : threads.subList(0, WRITERS)) {
        t.join(TimeUnit.MINUTES.toMillis(2));
      }
      writing.set(false);
      for (Thread t : threads) {
        t.join(TimeUnit.MINUTES.toMillis(2));
      }
      assertThat(failed.get()).isNull();
      assertThat(written).hasSize(WRITERS * PER_WRITER);
      loci.snapshot(); // at once: the queued changes go into the snapshot, not only the journal
    }
    // reopen from that snapshot alone: the journal it covers is not replayed
    try (Loci loci = Loci.builder().dataDir(dir).snapshotAfter(0).open()) {
      Set<String> held = new java.util.HashSet<>();
      for (int w = 0; w < WRITERS; w++) {
        Subjects.of(loci)
            .manifest("queue-subject-" + w, ALL)
            .records()
            .forEach(h -> held.add(h.id()));
      }
      assertThat(held).isEqualTo(written);
      AuditVerification v = Subjects.of(loci).verifyAudit(Optional.empty());
      assertThat(v.ok()).as("%s", v.problems()).isTrue();
      assertThat(v.entries()).isEqualTo(WRITERS * PER_WRITER);
    }
  }
}
