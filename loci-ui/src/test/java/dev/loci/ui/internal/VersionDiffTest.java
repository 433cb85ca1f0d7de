package dev.loci.ui.internal;

import static org.assertj.core.api.Assertions.assertThat;

import java.util.List;
import org.junit.jupiter.api.Test;

class VersionDiffTest {
  @Test
  void of_oneFieldChanged_oneLineRemovedOneAddedRestKept() {
    List<VersionDiff.Line> d =
        VersionDiff.of("{\"a\":1,\"b\":\"x\",\"c\":true}", "{\"a\":1,\"b\":\"y\",\"c\":true}");
    assertThat(d)
        .extracting(VersionDiff.Line::kind)
        .containsExactly(
            VersionDiff.Kind.SAME,
            VersionDiff.Kind.SAME,
            VersionDiff.Kind.REMOVED,
            VersionDiff.Kind.ADDED,
            VersionDiff.Kind.SAME,
            VersionDiff.Kind.SAME);
    assertThat(d.get(2).text()).contains("\"b\" : \"x\"");
    assertThat(d.get(3).text()).contains("\"b\" : \"y\"");
    assertThat(d.get(4).oldLine()).isEqualTo(4);
    assertThat(d.get(4).newLine()).isEqualTo(4);
  }

  @Test
  void of_sameContent_noChangedLine() {
    assertThat(VersionDiff.of("[1,2]", "[1,2]")).allMatch(l -> l.kind() == VersionDiff.Kind.SAME);
  }

  @Test
  void pretty_notJson_returnedAsItIs() {
    assertThat(VersionDiff.pretty("not json {")).isEqualTo("not json {");
  }
}
