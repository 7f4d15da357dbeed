package io.trigrep.proto;

import static org.assertj.core.api.Assertions.assertThat;
import static org.assertj.core.api.Assertions.assertThatThrownBy;

import java.util.ArrayList;
import java.util.List;
import org.junit.jupiter.api.Test;

/**
 * The slots the bindings read and write through, without the capnp tool (SchemaLayoutTest checks
 * them against the schema when it is installed): the index each kind of field hands the runtime,
 * the location as capnp prints it, and the shapes a slot or struct refuses.
 */
class LayoutTest {
    @Test
    void aDataFieldsIndexIsItsOffsetInUnitsOfItsWidth() {
        assertThat(Layout.Slot.data(0, "u64", "UInt64", 128, 64).index()).isEqualTo(2);
        assertThat(Layout.Slot.data(0, "u32", "UInt32", 96, 32).index()).isEqualTo(3);
        assertThat(Layout.Slot.data(0, "u16", "UInt16", 48, 16).index()).isEqualTo(3);
        assertThat(Layout.Slot.data(0, "u8", "UInt8", 40, 8).index()).isEqualTo(5);
        assertThat(Layout.Slot.data(0, "f32", "Float32", 32, 32).index()).isEqualTo(1);
    }

    @Test
    void aBoolsIndexIsItsBitAndAVoidsIsItsOffset() {
        assertThat(Layout.Slot.data(0, "flag", "Bool", 7, 1).index()).isEqualTo(7);
        assertThat(Layout.Slot.data(0, "nothing", "Void", 0, 0).index()).isZero();
    }

    @Test
    void aPointersIndexIsItsSlot() {
        Layout.Slot pointer = Layout.Slot.pointer(3, "path", "Text", 4);
        assertThat(pointer.index()).isEqualTo(4);
        assertThat(pointer.pointer()).isTrue();
        assertThat(pointer.bitWidth()).isZero();
        assertThat(pointer.unionTag()).isEqualTo(Layout.NO_UNION);
        assertThat(pointer.ordinal()).isEqualTo(3);
    }

    @Test
    void locationsReadAsCapnpPrintsThem() {
        assertThat(Layout.Slot.pointer(0, "pkg", "Text", 0).location()).isEqualTo("ptr[0]");
        assertThat(Layout.Slot.data(1, "line", "UInt32", 32, 32).location()).isEqualTo("bits[32, 64)");
        assertThat(Layout.Slot.data(1, "line", "UInt32", 32, 32).inUnion(2).location())
                .isEqualTo("bits[32, 64), union tag = 2");
        assertThat(Layout.Slot.pointer(0, "result", "Result", 0).inUnion(0).location())
                .isEqualTo("ptr[0], union tag = 0");
    }

    @Test
    void aSlotInAUnionKeepsEverythingElse() {
        Layout.Slot slot = Layout.Slot.data(5, "ranking", "Float32", 64, 32);
        Layout.Slot member = slot.inUnion(1);
        assertThat(member.unionTag()).isEqualTo(1);
        assertThat(member.name()).isEqualTo("ranking");
        assertThat(member.ordinal()).isEqualTo(5);
        assertThat(member.type()).isEqualTo("Float32");
        assertThat(member.pointer()).isFalse();
        assertThat(member.bitOffset()).isEqualTo(64);
        assertThat(member.bitWidth()).isEqualTo(32);
        assertThat(member.index()).isEqualTo(slot.index());
    }

    @Test
    void aMisalignedDataFieldIsRefused() {
        assertThatThrownBy(() -> Layout.Slot.data(0, "odd", "UInt32", 16, 32))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("odd");
        // pointers and zero-width fields have no alignment to keep
        assertThat(Layout.Slot.pointer(0, "p", "Text", 3).bitOffset()).isEqualTo(3);
        assertThat(Layout.Slot.data(0, "v", "Void", 3, 0).bitOffset()).isEqualTo(3);
    }

    @Test
    void aStructsSizeIsInWordsAndItsDataWholeWords() {
        List<Layout.Slot> slots = new ArrayList<>(List.of(Layout.Slot.data(0, "a", "UInt64", 0, 64)));
        Layout.Struct struct = new Layout.Struct("S", 16, 3, null, slots);
        assertThat(struct.size().data).isEqualTo((short) 2);
        assertThat(struct.size().pointers).isEqualTo((short) 3);
        slots.clear();
        assertThat(struct.slots()).hasSize(1);
        assertThatThrownBy(() -> new Layout.Struct("T", 12, 0, null, List.of()))
                .isInstanceOf(IllegalArgumentException.class)
                .hasMessageContaining("T");
    }

    @Test
    void anEnumKeepsItsEnumerantsAsGiven() {
        List<String> names = new ArrayList<>(List.of("a", "b"));
        Layout.Enum e = new Layout.Enum("E", names);
        names.add("c");
        assertThat(e.enumerants()).containsExactly("a", "b");
    }
}
