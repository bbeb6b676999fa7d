import * as XLSX from '@e965/xlsx';
import * as cptable from '@e965/xlsx/dist/cpexcel.full.mjs';

// Legacy workbooks store strings in the code page of the machine that wrote them (GBK, Big5, 1252).
XLSX.set_cptable(cptable);

export { XLSX };
