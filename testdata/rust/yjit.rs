// testdata/rust/yjit.rs - Rust layouts for tests/e2e/rust.sh, compiled at
// test time with `rustc -g`.  The binary is both the input structfit reads
// and the oracle: run, it prints what the compiler decided (size_of,
// align_of, offset_of! and, for enum variants, the offsets of fields in a
// live value), one "TYPE KEY VALUE" line each.
//
// Block is YJIT's example: rustc reorders its fields (d, b, e, c, a) and
// the niche of NonNull makes Option<CodePtrNN> as small as the pointer.
#![allow(dead_code)]
use std::mem::{align_of, size_of};
use std::ptr::NonNull;

pub struct CodePtr(*const u8);
pub struct CodePtrNN(NonNull<u8>);
pub struct Block {
    a: u8,
    b: u64,
    c: u16,
    d: Option<CodePtr>,
    e: Option<CodePtrNN>,
}
pub enum Shape {
    Circle(f64),
    Rect { w: u32, h: u32 },
    Empty,
}
// declaration order kept: a 7-byte hole after `tag`, 4 bytes of padding
#[repr(C)]
pub struct Header {
    tag: u8,
    len: u64,
    id: u32,
}
// asked for: 64-byte alignment (a cacheline of its own)
#[repr(C, align(64))]
pub struct Slot {
    count: u64,
}
pub struct Arena {
    name: [u8; 4],
    first: &'static u8,
    boxed: Box<u64>,
    next: usize,
    code: *const u8,
}

// What suggest proposes for Block and Header, written out for the compiler
// to lay out: its sizes are the oracle for the proposals.
// the niche: d's CodePtr made a NonNull
pub struct BlockNN {
    a: u8,
    b: u64,
    c: u16,
    d: Option<CodePtrNN>,
    e: Option<CodePtrNN>,
}
// the #[repr(packed)] what-if
#[repr(packed)]
pub struct BlockPacked {
    a: u8,
    b: u64,
    c: u16,
    d: Option<CodePtr>,
    e: Option<CodePtrNN>,
}
// Header's fields in the order rustc picks (what the reorder should reach)
pub struct HeaderRust {
    tag: u8,
    len: u64,
    id: u32,
}

// the offset of field FIELD of type TYPE (offset_of! from rustc 1.77; the
// test swaps in a pointer-arithmetic form for older compilers)
macro_rules! off {
    ($t:ty, $f:ident) => {
        std::mem::offset_of!($t, $f)
    };
}

macro_rules! facts {
    ($name:expr, $t:ty) => {
        println!("{} size {}", $name, size_of::<$t>());
        println!("{} align {}", $name, align_of::<$t>());
    };
}

macro_rules! field {
    ($name:expr, $t:ty, $f:ident) => {
        println!("{} {} {}", $name, stringify!($f), off!($t, $f));
    };
}

// offset of a field inside a live enum value (variants have no offset_of!)
fn delta<T, F>(base: &T, field: &F) -> usize {
    field as *const F as usize - base as *const T as usize
}

static ONE: u8 = 1;

fn main() {
    facts!("yjit::Block", Block);
    field!("yjit::Block", Block, a);
    field!("yjit::Block", Block, b);
    field!("yjit::Block", Block, c);
    field!("yjit::Block", Block, d);
    field!("yjit::Block", Block, e);
    facts!("yjit::Header", Header);
    field!("yjit::Header", Header, tag);
    field!("yjit::Header", Header, len);
    field!("yjit::Header", Header, id);
    facts!("yjit::Slot", Slot);
    field!("yjit::Slot", Slot, count);
    facts!("yjit::Arena", Arena);
    field!("yjit::Arena", Arena, name);
    field!("yjit::Arena", Arena, first);
    field!("yjit::Arena", Arena, boxed);
    field!("yjit::Arena", Arena, next);
    field!("yjit::Arena", Arena, code);
    facts!("yjit::BlockNN", BlockNN);
    facts!("yjit::BlockPacked", BlockPacked);
    facts!("yjit::HeaderRust", HeaderRust);
    facts!("yjit::CodePtr", CodePtr);
    facts!("yjit::CodePtrNN", CodePtrNN);
    facts!("yjit::Shape", Shape);
    facts!("core::option::Option<yjit::CodePtr>", Option<CodePtr>);
    facts!("core::option::Option<yjit::CodePtrNN>", Option<CodePtrNN>);
    let shapes = [Shape::Circle(1.5), Shape::Rect { w: 2, h: 3 }, Shape::Empty];
    for s in shapes.iter() {
        match s {
            Shape::Circle(r) => println!("yjit::Shape Circle.__0 {}", delta(s, r)),
            Shape::Rect { w, h } => {
                println!("yjit::Shape Rect.w {}", delta(s, w));
                println!("yjit::Shape Rect.h {}", delta(s, h));
            }
            Shape::Empty => {}
        }
    }
    let d = Some(CodePtr(&ONE as *const u8));
    if let Some(p) = &d {
        println!("core::option::Option<yjit::CodePtr> Some.__0 {}", delta(&d, p));
    }
    let e = Some(CodePtrNN(NonNull::from(&ONE)));
    if let Some(p) = &e {
        println!("core::option::Option<yjit::CodePtrNN> Some.__0 {}", delta(&e, p));
    }
    // keep every type in the debug info
    let b = Block { a: 1, b: 2, c: 3, d, e };
    let h = Header { tag: 1, len: 2, id: 3 };
    let sl = Slot { count: 1 };
    let ar = Arena { name: *b"abcd", first: &ONE, boxed: Box::new(5), next: 0, code: &ONE };
    let bn = BlockNN { a: 1, b: 2, c: 3, d: None, e: None };
    let bp = BlockPacked { a: 1, b: 2, c: 3, d: None, e: None };
    let hr = HeaderRust { tag: 1, len: 2, id: 3 };
    // (std::hint::black_box is not in Debian's rustc 1.63; without -O a
    // local keeps its type in the DWARF anyway)
    let keep = (&b, &h, &sl, &ar, &shapes, &bn, &bp, &hr);
    std::mem::forget(keep);
}
