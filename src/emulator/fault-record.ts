/**
 * The fault record as the GPU logs it, decoded: its own file because both the report
 * (fault-report.ts) and the descriptor-fault decoding (descriptor-faults.ts) read it.
 */
/** A fault as the GPU logged it (shaders/prelude/common.wgsl's D3D12FaultRecord, decoded). */
export interface FaultRecord {
  /** The virtual address accessed. */
  address: bigint;
  /**
   * 'page-offset': through a page handle (WGSL d3d12_page), at an offset outside its page or not
   * aligned to the access. The descriptor kinds (GPU-based validation's): 'unbound-register' (the
   * root signature binds no such register; the address holds the register and space),
   * 'descriptor-uninitialized', 'descriptor-mismatch' (another type than the shader reads, or a root
   * binding where a table's view is read), 'descriptor-released' (the view's resource was released).
   */
  kind:
    | 'read-unowned'
    | 'write-unowned'
    | 'read-absent'
    | 'write-absent'
    | 'misaligned'
    | 'page-offset'
    | 'unbound-register'
    | 'descriptor-uninitialized'
    | 'descriptor-mismatch'
    | 'descriptor-released'
    | 'unknown';
  commandListId: number;
  commandIndex: number;
  /** The page-table entry seen. */
  entry: number;
}
