package dev.loci;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.nio.file.Files;
import java.nio.file.Path;
import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.AfterEach;
import org.junit.jupiter.api.BeforeEach;
import org.junit.jupiter.api.Test;
import org.junit.jupiter.api.io.TempDir;

/**
 * A real full disk: a 1 MiB tmpfs mounted for the test. It also guards segment preallocation: a
 * first version retried a failed zero-fill from the old allocation mark and wrote zeros over
 * acknowledged lines, which this test caught. Needs the right to mount (root, as on the CI
 * machine); elsewhere the test is skipped and says why.
 */
class FullDiskTest {
  private static final Namespace NS = Namespace.of("disk");

  @TempDir Path tmp;
  private Path mount;

  @BeforeEach
  void mountSmallFilesystem() throws Exception {
    mount = SmallDisk.mount(tmp.resolve("small"), "1m");
  }

  @AfterEach
  void unmount() throws Exception {
    SmallDisk.unmount(mount);
  }

  @Test
  void add_diskFull_failsCleanlyKeepsAcknowledgedAndRecoversWhenSpaceFrees() throws Exception {
    Path filler = mount.resolve("filler");
    Files.write(filler, new byte[256 * 1024]);
    Path data = mount.resolve("data");
    String content = "{\"pad\":\"" + "x".repeat(8 * 1024) + "\"}";
    List<Trace> acknowledged = new ArrayList<>();
    try (Loci loci = Loci.builder().dataDir(data).snapshotAfter(0).open()) {
      StorageException full = null;
      for (int i = 0; i < 1000 && full == null; i++) {
        try {
          acknowledged.add(loci.traces().add(NS, content, List.of("n" + i)));
        } catch (StorageException e) {
          full = e;
        }
      }
      assertThat(full).as("the disk filled up").isNotNull();
      assertThat(full.getMessage()).contains("nothing was written");
      assertThat(full).isInstanceOf(dev.loci.spi.JournalUnavailableException.class);
      assertThat(loci.unavailable()).get().asString().startsWith("disk full");
      long seq = loci.lastSeq();
      assertThat(seq).isEqualTo(acknowledged.size());
      assertThat(loci.traces().count(NamespaceScope.exactly(NS))).isEqualTo(acknowledged.size());
      assertThatThrownBy(() -> loci.traces().add(NS, content, List.of()))
          .isInstanceOf(StorageException.class);

      Files.delete(filler);
      assertThat(loci.unavailable()).as("health clears once there is room").isEmpty();
      acknowledged.add(loci.traces().add(NS, content, List.of("after")));
    }
    try (Loci loci = Loci.builder().dataDir(data).snapshotAfter(0).open()) {
      assertThat(loci.openDamage()).isEmpty();
      for (Trace t : acknowledged) {
        assertThat(loci.traces().get(NS, t.uid())).isEqualTo(t);
      }
      assertThat(loci.traces().count(NamespaceScope.exactly(NS))).isEqualTo(acknowledged.size());
    }
    assertThat(Loci.verify(data).damage()).isEmpty();
  }
}
