package dev.loci.spi;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import org.junit.jupiter.api.Test;

/** Event types are checked once per distinct type in a row; the check must still hold for all. */
class EventTypeTest {
  @Test
  void badTypes_areRefused_alsoRightAfterAGoodOne() {
    for (String bad :
        new String[] {"trace", "Trace.added", "trace.", ".added", "trace..x", "1a.b"}) {
      Event.ofJson("trace.added", "{}");
      assertThatThrownBy(() -> Event.ofJson(bad, "{}"))
          .isInstanceOf(IllegalArgumentException.class)
          .hasMessageContaining("layer.verb")
          .hasMessageContaining(bad);
      assertThatThrownBy(() -> Event.ofJson(bad, "{}"))
          .as("twice in a row")
          .isInstanceOf(IllegalArgumentException.class);
    }
    assertThatThrownBy(() -> Event.ofJson(null, "{}"))
        .isInstanceOf(NullPointerException.class)
        .hasMessage("type");
  }

  @Test
  void theLayerIsTheTypeUpToItsFirstDot_sharedWhileItRepeats() {
    Event a = Event.ofJson("trace.added", "{}");
    Event b = Event.ofJson(new String("trace.added"), "{}");
    Event c = Event.ofJson("trace.retired", "{}");
    Event d = Event.ofJson("subject.erased.all", "{}");
    assertThat(a.layer()).isEqualTo("trace").isSameAs(b.layer()).isSameAs(c.layer());
    assertThat(d.layer()).isEqualTo("subject");
    assertThat(d.type()).isEqualTo("subject.erased.all");
  }
}
