/**
 * Everyday Indonesian (and Jakarta) traffic words → the wording of UU 22/2009 tentang Lalu Lintas dan
 * Angkutan Jalan. Every expansion phrase occurs in the statute's text (traffic.test.ts reads the corpus
 * to check), so the legal variant searches with words the law actually uses.
 */
import type { DictionaryEntry } from './types.js';

export const TRAFFIC_DICTIONARY: DictionaryEntry[] = [
  // Signals, signs, markings and the general duty to obey them.
  {
    terms: ['lampu merah', 'lampu lalu lintas', 'lampu setopan', 'lampu stopan', 'bangjo', 'traffic light'],
    expansion: 'Alat Pemberi Isyarat Lalu Lintas',
  },
  {
    terms: ['nerobos', 'menerobos', 'terobos', 'nrobos', 'diterobos', 'lewat aja'],
    expansion: 'melanggar aturan perintah atau larangan',
  },
  {
    terms: ['rambu', 'rambu-rambu', 'plang'],
    expansion: ['Rambu Lalu Lintas', 'rambu perintah atau rambu larangan'],
  },
  { terms: ['marka', 'garis jalan', 'garis putih', 'garis lurus'], expansion: 'Marka Jalan' },
  // Papers and checks.
  { terms: ['sim', 'surat izin nyetir'], expansion: 'Surat Izin Mengemudi' },
  // The class letter stays: "Surat Izin Mengemudi A" is not the "Surat Izin Mengemudi A Umum" of Pasal 82.
  { terms: ['sim a'], expansion: 'Surat Izin Mengemudi A' },
  { terms: ['sim c'], expansion: 'Surat Izin Mengemudi C' },
  { terms: ['sim d'], expansion: 'Surat Izin Mengemudi D' },
  { terms: ['sim b1', 'sim b 1', 'sim b i'], expansion: 'Surat Izin Mengemudi B I' },
  { terms: ['sim b2', 'sim b 2', 'sim b ii'], expansion: 'Surat Izin Mengemudi B II' },
  { terms: ['stnk'], expansion: 'Surat Tanda Nomor Kendaraan Bermotor' },
  { terms: ['bpkb'], expansion: 'Buku Pemilik Kendaraan Bermotor' },
  {
    terms: ['plat nomor', 'pelat nomor', 'plat', 'nopol', 'nomor polisi', 'plat palsu'],
    expansion: 'Tanda Nomor Kendaraan Bermotor',
  },
  {
    terms: ['surat-surat', 'surat surat', 'surat kendaraan'],
    expansion: ['Surat Izin Mengemudi', 'Surat Tanda Nomor Kendaraan Bermotor'],
  },
  {
    terms: ['razia', 'operasi zebra', 'operasi patuh', 'dicegat polisi', 'diberhentikan polisi'],
    expansion: 'pemeriksaan Kendaraan Bermotor di Jalan',
  },
  {
    terms: ['lupa bawa', 'lupa membawa', 'nggak bawa', 'gak bawa', 'ga bawa', 'tidak bawa', 'ketinggalan'],
    expansion: 'tidak dapat menunjukkan',
  },
  {
    terms: ['tilang', 'ditilang', 'kena tilang', 'slip tilang'],
    expansion: ['Pelanggaran Lalu Lintas', 'denda paling banyak'],
  },
  {
    terms: ['polantas', 'polisi lalu lintas', 'pak polisi'],
    expansion: 'Kepolisian Negara Republik Indonesia',
  },
  { terms: ['uji kir', 'kir'], expansion: 'uji berkala' },
  { terms: ['nyita', 'disita', 'sita', 'ditahan', 'diangkut polisi'], expansion: 'penyitaan' },
  { terms: ['pajak kendaraan', 'pajak motor', 'pajak mobil'], expansion: 'pajak Kendaraan Bermotor' },
  // Safety equipment.
  {
    terms: ['helm', 'helem', 'gak pakai helm', 'tanpa helm'],
    expansion: 'helm yang memenuhi standar nasional Indonesia',
  },
  { terms: ['sabuk pengaman', 'seat belt', 'seatbelt', 'safety belt'], expansion: 'sabuk keselamatan' },
  {
    terms: ['spion', 'kaca spion', 'lampu sein', 'sein', 'klakson', 'ban gundul'],
    expansion: 'persyaratan teknis dan laik jalan',
  },
  {
    terms: ['knalpot', 'knalpot racing', 'knalpot brong', 'knalpot bising', 'knalpot bobokan'],
    expansion: ['knalpot', 'persyaratan teknis dan laik jalan'],
  },
  {
    terms: ['lampu motor', 'lampu siang', 'nyalain lampu', 'menyalakan lampu', 'lampu depan'],
    expansion: 'menyalakan lampu utama pada siang hari',
  },
  {
    terms: [
      'bumper tanduk',
      'lampu silau',
      'lampu menyilaukan',
      'modifikasi',
      'dimodifikasi',
      'modif',
      'dimodif',
      'ceper',
    ],
    expansion: ['modifikasi', 'perlengkapan yang dapat mengganggu keselamatan berlalu lintas'],
  },
  {
    terms: ['strobo', 'sirene', 'sirine', 'rotator', 'lampu rotator', 'patwal', 'voorijder'],
    expansion: ['lampu isyarat', 'sirene', 'hak utama'],
  },
  {
    terms: ['ambulans', 'ambulan', 'mobil jenazah', 'damkar', 'pemadam'],
    expansion: ['ambulans', 'hak utama'],
  },
  // Driving behaviour.
  {
    terms: ['ngebut', 'kebut-kebutan', 'kebut kebutan', 'kecepatan tinggi', 'kencang', 'melebihi kecepatan'],
    expansion: 'batas kecepatan paling tinggi',
  },
  {
    terms: ['balap liar', 'balapan', 'trek-trekan', 'trek trekan', 'adu cepat'],
    expansion: 'berbalapan di Jalan',
  },
  {
    terms: ['menyalip', 'nyalip', 'salip', 'zigzag', 'zig-zag', 'selap-selip', 'nyelip'],
    expansion: ['melewati Kendaraan', 'mendahului'],
  },
  {
    terms: ['lawan arah', 'melawan arah', 'lawan arus', 'salah arah'],
    expansion: ['jalur Jalan sebelah kiri', 'arah berlawanan'],
  },
  {
    terms: ['putar balik', 'u-turn', 'putar arah', 'muter balik', 'belok'],
    expansion: ['berbelok atau berbalik arah', 'lampu penunjuk arah'],
  },
  { terms: ['bahu jalan', 'bahu tol', 'jalur darurat'], expansion: ['jalur Jalan sebelah kiri', 'lajur'] },
  { terms: ['pindah jalur', 'ganti lajur', 'lajur kanan', 'pindah lajur'], expansion: 'lajur' },
  {
    terms: ['hp', 'handphone', 'ponsel', 'main hp', 'nelpon', 'telponan', 'teleponan', 'chatting', 'gadget'],
    expansion: ['menggunakan telepon', 'penuh konsentrasi'],
  },
  { terms: ['mabuk', 'miras', 'minum alkohol', 'teler'], expansion: 'minuman yang mengandung alkohol' },
  { terms: ['ngantuk', 'capek', 'kelelahan'], expansion: ['mengantuk', 'penuh konsentrasi'] },
  {
    terms: ['ugal-ugalan', 'ugal ugalan', 'sembrono', 'sembarangan nyetir'],
    expansion: ['wajar dan penuh konsentrasi', 'membahayakan'],
  },
  {
    terms: ['bonceng tiga', 'cenglu', 'boncengan tiga', 'bonceng'],
    expansion: 'membawa Penumpang lebih dari 1 (satu) orang',
  },
  // Right of way: who goes first, who gives way.
  {
    terms: [
      'mengalah',
      'minggir',
      'memberi jalan',
      'beri jalan',
      'didahulukan',
      'duluan',
      'yang duluan',
      'prioritas',
      'diprioritaskan',
      'jalan duluan',
    ],
    expansion: ['hak utama', 'mengutamakan'],
  },
  { terms: ['papasan', 'berpapasan', 'simpangan'], expansion: 'berpapasan' },
  {
    terms: ['tanjakan', 'turunan', 'nanjak', 'menanjak', 'jalan menanjak', 'jalan menurun', 'jalan turun'],
    expansion: ['menanjak', 'menurun'],
  },
  // Emissions.
  {
    terms: ['asap', 'asap hitam', 'asap knalpot', 'ngebul', 'polusi', 'emisi', 'gas buang', 'uji emisi'],
    expansion: 'ambang batas emisi gas buang',
  },
  // The road used for something else than traffic.
  {
    terms: [
      'tutup jalan',
      'menutup jalan',
      'penutupan jalan',
      'hajatan',
      'pesta',
      'kondangan',
      'nikahan',
      'karnaval',
      'pawai',
      'konser',
      'acara di jalan',
      'unjuk rasa',
    ],
    expansion: ['penggunaan Jalan', 'kegiatan di luar fungsinya'],
  },
  // Stopping and parking.
  // Stopping and parking as a rule of the road; parking places and lots are "fasilitas Parkir".
  {
    terms: ['parkir', 'parkir sembarangan', 'ngetem', 'berhenti sebentar'],
    expansion: 'berhenti dan Parkir',
  },
  {
    terms: ['parkir liar', 'tempat parkir', 'lahan parkir', 'juru parkir', 'tukang parkir'],
    expansion: 'fasilitas Parkir',
  },
  {
    terms: ['pinggir jalan', 'tepi jalan', 'badan jalan'],
    expansion: ['Ruang Milik Jalan', 'fasilitas Parkir'],
  },
  { terms: ['trotoar', 'jalan kaki', 'pedestrian'], expansion: ['trotoar', 'Pejalan Kaki'] },
  {
    terms: ['nyeberang', 'menyeberang', 'zebra cross', 'penyeberangan', 'jembatan penyeberangan'],
    expansion: ['tempat penyeberangan', 'Pejalan Kaki'],
  },
  // Vehicles and services.
  { terms: ['motor', 'sepeda motor', 'motoran', 'pemotor'], expansion: 'Sepeda Motor' },
  { terms: ['mobil', 'mobil pribadi'], expansion: 'Mobil Penumpang' },
  { terms: ['truk', 'truck', 'pikap', 'pick up', 'mobil bak'], expansion: 'Mobil Barang' },
  {
    terms: ['muatan berlebih', 'overload', 'odol', 'kelebihan muatan', 'overdimensi'],
    expansion: ['muatan', 'daya angkut', 'dimensi Kendaraan'],
  },
  {
    terms: ['angkot', 'mikrolet', 'metromini', 'kopaja', 'bus', 'bis'],
    expansion: ['Kendaraan Bermotor Umum', 'trayek'],
  },
  {
    terms: ['busway', 'jalur busway', 'transjakarta', 'jalur bus'],
    expansion: ['angkutan massal', 'lajur khusus'],
  },
  {
    terms: ['ojek', 'ojol', 'ojek online', 'taksi online', 'angkutan online', 'grab', 'gojek'],
    expansion: ['Sepeda Motor', 'angkutan orang', 'Kendaraan Bermotor Umum'],
  },
  { terms: ['sepeda', 'gowes', 'pesepeda', 'becak', 'gerobak'], expansion: 'Kendaraan Tidak Bermotor' },
  { terms: ['tol', 'jalan tol'], expansion: 'Jalan Tol' },
  // Accidents and responsibility.
  {
    terms: ['kecelakaan', 'tabrakan', 'nabrak', 'menabrak', 'ditabrak', 'kecelakaan lalu lintas'],
    expansion: 'Kecelakaan Lalu Lintas',
  },
  {
    terms: ['tabrak lari', 'kabur setelah nabrak', 'kabur'],
    expansion: 'tidak menghentikan kendaraannya, tidak memberikan pertolongan',
  },
  { terms: ['ganti rugi', 'tanggung jawab', 'biaya rumah sakit'], expansion: 'ganti kerugian' },
  {
    terms: ['jalan rusak', 'jalan berlubang', 'lubang jalan'],
    expansion: ['Jalan yang rusak', 'Penyelenggara Jalan'],
  },
  // People.
  {
    terms: [
      'anak di bawah umur',
      'bocah',
      'anak sekolah',
      'anak smp',
      'anak kecil',
      'di bawah umur',
      'umur berapa',
    ],
    expansion: ['persyaratan usia', 'Surat Izin Mengemudi'],
  },
  // "Umur" is the everyday word for the statute's "usia".
  { terms: ['umur', 'umurnya', 'berumur', 'umur minimal', 'batas umur'], expansion: 'usia' },
  { terms: ['penumpang', 'yang dibonceng', 'boncenger'], expansion: 'Penumpang' },
  {
    terms: [
      'menurunkan penumpang',
      'mengambil penumpang',
      'menaikkan penumpang',
      'naik turun penumpang',
      'cari penumpang',
      'nyari penumpang',
    ],
    expansion: ['menaikkan atau menurunkan Penumpang', 'memberhentikan Kendaraan'],
  },
  // Tickets and cancelled trips.
  {
    terms: [
      'refund',
      'uang kembali',
      'pengembalian uang',
      'batal',
      'dibatalkan',
      'pembatalan',
      'batal berangkat',
    ],
    expansion: ['mengembalikan biaya angkutan', 'pembatalan'],
  },
];
