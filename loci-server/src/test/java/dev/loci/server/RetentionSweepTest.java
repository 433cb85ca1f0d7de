package dev.loci.server;

import static org.assertj.core.api.Assertions.assertThat;

import dev.loci.LegalCapability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import dev.loci.Trace;
import dev.loci.subjects.SubjectPolicy;
import dev.loci.subjects.Subjects;
import java.nio.file.Path;
import java.time.Clock;
import java.time.Duration;
import java.time.Instant;
import java.time.ZoneOffset;
import java.util.List;
import java.util.Optional;
import java.util.OptionalInt;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/** The server runs the retention sweep on its own schedule. */
class RetentionSweepTest {
  static final Namespace NS = Namespace.of("clinic.ward");

  @TempDir Path dir;

  @Test
  void theScheduledSweep_erasesWhatIsPastRetention_andKeepsWhatIsHeld() throws Exception {
    // the data directory's clock runs 40 days behind, so every write is 40 days old at once
    Clock past = Clock.fixed(Instant.now().minus(Duration.ofDays(40)), ZoneOffset.UTC);
    try (LociServer server =
        LociServer.builder(Loci.builder().dataDir(dir).clock(past))
            .config(ServerConfig.defaults().withPort(0))
            .retentionSweepEvery(Duration.ofMillis(200))
            .start()) {
      Loci loci = server.loci();
      Subjects subjects = Subjects.of(loci);
      LegalCapability legal = new LegalCapability("dpo");
      Trace gone = loci.traces().add(NS, "{\"subject_ids\":[\"p-1\"],\"n\":\"OLD-1\"}", List.of());
      Trace kept = loci.traces().add(NS, "{\"subject_ids\":[\"p-2\"],\"n\":\"OLD-2\"}", List.of());
      subjects.setPolicy(
          legal,
          NS,
          "p-2",
          new SubjectPolicy(OptionalInt.empty(), true, Optional.empty(), Optional.empty()));
      subjects.setNamespacePolicy(
          legal,
          Namespace.of("clinic"),
          new SubjectPolicy(OptionalInt.of(30), false, Optional.empty(), Optional.empty()));

      long deadline = System.nanoTime() + Duration.ofSeconds(20).toNanos();
      while (!subjects.manifest("p-1", NamespaceScope.of("clinic.*")).records().isEmpty()) {
        assertThat(System.nanoTime()).as("the sweep ran within 20 s").isLessThan(deadline);
        Thread.sleep(50);
      }
      assertThat(loci.traces().get(NS, gone.uid()).content()).doesNotContain("OLD-1");
      assertThat(loci.traces().get(NS, kept.uid()).content()).contains("OLD-2");
    }
  }
}
