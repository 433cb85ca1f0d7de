package dev.loci.subjects;

import dev.loci.ChildJvm;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.subjects.internal.SubjectLayer;
import java.io.PrintStream;
import java.nio.file.Path;
import java.util.List;

/**
 * The child process of {@link AuditKillTest}: durable trace adds naming one of 50 subjects, from
 * two writers, each printing {@code T} once acknowledged; snapshots every 300 batches (each forces
 * the audit spool), audit lines written to the spool every 100 ms and an audit checkpoint every 700
 * ms (files brought up to date and forced, spool emptied), so that a kill lands in every part of
 * the audit log's life. Runs until killed.
 *
 * <p>Usage: {@code AuditCrashChild <dataDir>}.
 */
public final class AuditCrashChild {
  private AuditCrashChild() {}

  public static void main(String[] args) {
    PrintStream out = ChildJvm.start(4);
    Loci loci = AuditKillTest.open(Path.of(args[0]));
    ChildJvm.print(out, "START");
    ChildJvm.daemon(
        "checkpoints",
        () -> {
          // audit lines reach the spool every 100 ms (the writer's own timer waits a second, and on
          // a quiet machine every kill would land before it), the files every 700 ms
          for (int i = 1; ; i++) {
            ChildJvm.sleep(100);
            if (i % 7 == 0) {
              loci.layer(SubjectLayer.class).checkpointAudit();
            } else {
              loci.layer(SubjectLayer.class).writeAudit();
            }
          }
        });
    for (int w = 0; w < 2; w++) {
      int writer = w;
      ChildJvm.daemon(
          "writer-" + w,
          () -> {
            for (int i = 0; ; i++) {
              loci.traces()
                  .add(
                      Namespace.of("clinic.ward"),
                      "{\"subject_ids\":[\"p-" + (i * 7 + writer) % 50 + "\"],\"i\":" + i + "}",
                      List.of());
              ChildJvm.print(out, "T");
            }
          });
    }
    ChildJvm.sleep(600_000);
  }
}
