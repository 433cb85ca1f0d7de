package dev.loci.subjects;

import dev.loci.ChildJvm;
import dev.loci.LegalCapability;
import dev.loci.Loci;
import dev.loci.Namespace;
import dev.loci.NamespaceScope;
import java.io.PrintStream;
import java.nio.file.Path;

/**
 * The child process of {@link EraseKillTest}: opens a seeded data directory, prints {@code START},
 * prints {@code T} every millisecond from another thread while it erases the subject, and {@code
 * DONE} once the erasure returned; then waits to be killed.
 *
 * <p>Usage: {@code EraseCrashChild <dataDir> <subject>}.
 */
public final class EraseCrashChild {
  private EraseCrashChild() {}

  public static void main(String[] args) {
    Path dir = Path.of(args[0]);
    PrintStream out = ChildJvm.start(4);
    Loci loci = EraseKillTest.open(dir);
    Subjects subjects = Subjects.of(loci);
    ChildJvm.print(out, "START");
    ChildJvm.daemon(
        "ticks",
        () -> {
          while (true) {
            ChildJvm.print(out, "T");
            ChildJvm.sleep(1);
          }
        });
    subjects.erase(
        new LegalCapability("dpo"),
        NamespaceScope.of("clinic.*"),
        Namespace.of("clinic"),
        args[1],
        "request under test");
    ChildJvm.print(out, "DONE");
    ChildJvm.sleep(120_000);
  }
}
