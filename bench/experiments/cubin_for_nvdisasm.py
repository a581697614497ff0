#!/usr/bin/env python3
"""A copy of an sm_90 cubin that an older nvdisasm reads, for disassembly on a machine
without the toolkit's own cuobjdump.

CUDA 13.0's NVRTC writes a cubin's ELF header in a newer form (ABI version 8, the
architecture in bits 8-15 of e_flags), which nvdisasm 11.8 refuses ("does not contain
Cuda architecture information"). Debian's nvidia-cuda-toolkit (11.8, non-free)
has an nvdisasm that knows sm_90's instructions; this rewrites the header to the form it
reads (ABI version 7; e_flags: the architecture in bits 0-7 and 16-23, 64-bit addresses,
unified texture mode). The code is not touched: the listing's instruction count matches
the .text section's size (16 bytes an instruction).

    cubin_for_nvdisasm.py in.cubin out.cubin && nvdisasm -c out.cubin > out.sass

To get that nvdisasm without installing the package and its dependencies: add Debian's
contrib and non-free components to an apt source, `apt-get download nvidia-cuda-toolkit`,
then `dpkg-deb -x nvidia-cuda-toolkit_*.deb DIR` (DIR/usr/bin/nvdisasm needs only libc).
"""
import struct
import sys

ABI_VERSION_AT = 8      # e_ident[EI_ABIVERSION]
FLAGS_AT = 0x30         # e_flags of an ELF64 header
OLD_64BIT = 0x400       # EF_CUDA_64BIT_ADDRESS
OLD_TEXMODE = 0x100     # EF_CUDA_TEXMODE_UNIFIED


def main(src, dst):
    data = bytearray(open(src, 'rb').read())
    if data[:4] != b'\x7fELF' or data[4] != 2:
        sys.exit(f'{src}: not an ELF64 file')
    if data[ABI_VERSION_AT] < 8:
        open(dst, 'wb').write(data)  # already the old form
        return
    sm = (struct.unpack_from('<I', data, FLAGS_AT)[0] >> 8) & 0xff
    if not 50 <= sm <= 120:
        sys.exit(f'{src}: no architecture found in e_flags')
    data[ABI_VERSION_AT] = 7
    struct.pack_into('<I', data, FLAGS_AT, sm | OLD_TEXMODE | OLD_64BIT | sm << 16)
    open(dst, 'wb').write(data)


if __name__ == '__main__':
    if len(sys.argv) != 3:
        sys.exit(__doc__)
    main(sys.argv[1], sys.argv[2])
