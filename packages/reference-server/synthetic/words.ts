import type { Script } from './languages.ts';

/**
 * Source strings are English words, so they can be searched for; a translation replaces
 * each word by one from its language's table, so each script shows up as real text.
 */
// Word tables read best packed, many to a line.
// prettier-ignore
export const englishWords: readonly string[] = [
  'file', 'open', 'save', 'close', 'settings', 'window', 'account', 'password',
  'user', 'message', 'folder', 'search', 'download', 'upload', 'share', 'delete',
  'cancel', 'confirm', 'network', 'server', 'update', 'version', 'language', 'project',
  'print', 'error', 'warning', 'connection', 'profile', 'image', 'document', 'calendar',
  'event', 'contact', 'address', 'email', 'backup', 'restore', 'device', 'screen',
  'keyboard', 'sound', 'volume', 'theme', 'color', 'font', 'size', 'page',
  'link', 'tab', 'menu', 'button', 'help', 'report', 'privacy', 'security',
  'history', 'export', 'import', 'sync', 'storage', 'license', 'payment', 'invoice',
];

/** English nouns in singular and plural, for plural strings. */
// Word tables read best packed, many to a line.
// prettier-ignore
export const englishNouns: readonly (readonly [string, string])[] = [
  ['file', 'files'], ['item', 'items'], ['message', 'messages'], ['day', 'days'],
  ['minute', 'minutes'], ['user', 'users'], ['page', 'pages'], ['device', 'devices'],
  ['error', 'errors'], ['string', 'strings'], ['contact', 'contacts'], ['update', 'updates'],
];

export interface WordTable {
  words: readonly string[];
  /** Between words: nothing for scripts written without spaces. */
  joiner: string;
  /** Whether a sentence starts with a capital letter. */
  cased: boolean;
}

const spaced = (words: string[], cased = true): WordTable => ({ words, joiner: ' ', cased });
const unspaced = (words: string[]): WordTable => ({ words, joiner: '', cased: false });

// Word tables read best packed, many to a line.
// prettier-ignore
export const wordTables: Record<Script, WordTable> = {
  en: spaced([...englishWords]),
  de: spaced(['Datei', 'öffnen', 'speichern', 'schließen', 'Einstellungen', 'Fenster', 'Konto', 'Passwort', 'Benutzer', 'Nachricht', 'Ordner', 'suchen', 'herunterladen', 'Größe', 'Übersicht', 'löschen']),
  fr: spaced(['fichier', 'ouvrir', 'enregistrer', 'fermer', 'paramètres', 'fenêtre', 'compte', 'clé', 'utilisateur', 'message', 'dossier', 'rechercher', 'télécharger', 'aperçu', 'supprimer', 'à propos']),
  es: spaced(['archivo', 'abrir', 'guardar', 'cerrar', 'configuración', 'ventana', 'cuenta', 'contraseña', 'usuario', 'mensaje', 'carpeta', 'búsqueda', 'descargar', 'tamaño', 'señal', 'eliminar']),
  pt: spaced(['arquivo', 'abrir', 'salvar', 'fechar', 'configurações', 'janela', 'conta', 'senha', 'usuário', 'mensagem', 'pasta', 'pesquisar', 'transferência', 'ação', 'informações', 'excluir']),
  it: spaced(['file', 'aprire', 'salvare', 'chiudere', 'impostazioni', 'finestra', 'account', 'città', 'utente', 'messaggio', 'cartella', 'cercare', 'scaricare', 'perché', 'già', 'eliminare']),
  pl: spaced(['plik', 'otwórz', 'zapisz', 'zamknij', 'ustawienia', 'okno', 'konto', 'hasło', 'użytkownik', 'wiadomość', 'folder', 'szukaj', 'pobierz', 'źródło', 'łącze', 'usuń']),
  cs: spaced(['soubor', 'otevřít', 'uložit', 'zavřít', 'nastavení', 'okno', 'účet', 'heslo', 'uživatel', 'zpráva', 'složka', 'hledat', 'stáhnout', 'příliš', 'žluťoučký', 'smazat']),
  sh: spaced(['datoteka', 'otvori', 'sačuvaj', 'zatvori', 'podešavanja', 'prozor', 'nalog', 'lozinka', 'korisnik', 'poruka', 'fascikla', 'pretraga', 'preuzmi', 'veličina', 'čvor', 'obriši']),
  nordic: spaced(['fil', 'öppna', 'spara', 'stäng', 'inställningar', 'fönster', 'konto', 'lösenord', 'användare', 'meddelande', 'mapp', 'søg', 'åbn', 'gem', 'størrelse', 'slet']),
  tr: spaced(['dosya', 'aç', 'kaydet', 'kapat', 'ayarlar', 'pencere', 'hesap', 'şifre', 'kullanıcı', 'ileti', 'klasör', 'ara', 'indir', 'güncelleştir', 'değişiklik', 'sil']),
  latin: spaced(['fájl', 'megnyitás', 'mentés', 'bezárás', 'beállítások', 'ablak', 'fiók', 'jelszó', 'felhasználó', 'üzenet', 'mapă', 'căutare', 'descărcați', 'ștergeți', 'failas', 'ŝlosilo']),
  vi: spaced(['tệp', 'mở', 'lưu', 'đóng', 'cài đặt', 'cửa sổ', 'tài khoản', 'mật khẩu', 'người dùng', 'tin nhắn', 'thư mục', 'tìm kiếm', 'tải xuống', 'cập nhật', 'ngôn ngữ', 'xóa']),
  ru: spaced(['файл', 'открыть', 'сохранить', 'закрыть', 'настройки', 'окно', 'аккаунт', 'пароль', 'пользователь', 'сообщение', 'папка', 'поиск', 'загрузить', 'обновление', 'язык', 'удалить']),
  uk: spaced(['файл', 'відкрити', 'зберегти', 'закрити', 'налаштування', 'вікно', 'обліковий', 'пароль', 'користувач', 'повідомлення', 'тека', 'пошук', 'завантажити', 'оновлення', 'мова', 'вилучити']),
  sr: spaced(['датотека', 'отвори', 'сачувај', 'затвори', 'подешавања', 'прозор', 'налог', 'лозинка', 'корисник', 'порука', 'фасцикла', 'претрага', 'преузми', 'ажурирање', 'језик', 'обриши']),
  el: spaced(['αρχείο', 'άνοιγμα', 'αποθήκευση', 'κλείσιμο', 'ρυθμίσεις', 'παράθυρο', 'λογαριασμός', 'κωδικός', 'χρήστης', 'μήνυμα', 'φάκελος', 'αναζήτηση', 'λήψη', 'ενημέρωση', 'γλώσσα', 'διαγραφή']),
  ar: spaced(['ملف', 'فتح', 'حفظ', 'إغلاق', 'الإعدادات', 'نافذة', 'حساب', 'كلمة', 'مستخدم', 'رسالة', 'مجلد', 'بحث', 'تنزيل', 'تحديث', 'اللغة', 'حذف'], false),
  fa: spaced(['پرونده', 'گشودن', 'ذخیره', 'بستن', 'تنظیمات', 'پنجره', 'حساب', 'گذرواژه', 'کاربر', 'پیام', 'پوشه', 'جستجو', 'بارگیری', 'به‌روزرسانی', 'زبان', 'حذف'], false),
  he: spaced(['קובץ', 'פתח', 'שמור', 'סגור', 'הגדרות', 'חלון', 'חשבון', 'סיסמה', 'משתמש', 'הודעה', 'תיקייה', 'חיפוש', 'הורדה', 'עדכון', 'שפה', 'מחק'], false),
  ja: unspaced(['ファイル', '開く', '保存', '閉じる', '設定', 'ウィンドウ', 'アカウント', 'パスワード', 'ユーザー', 'メッセージ', 'フォルダー', '検索', 'ダウンロード', '更新', '言語', '削除']),
  zh_Hans: unspaced(['文件', '打开', '保存', '关闭', '设置', '窗口', '账户', '密码', '用户', '消息', '文件夹', '搜索', '下载', '更新', '语言', '删除']),
  zh_Hant: unspaced(['檔案', '開啟', '儲存', '關閉', '設定', '視窗', '帳號', '密碼', '使用者', '訊息', '資料夾', '搜尋', '下載', '更新', '語言', '刪除']),
  ko: spaced(['파일', '열기', '저장', '닫기', '설정', '창', '계정', '비밀번호', '사용자', '메시지', '폴더', '검색', '다운로드', '업데이트', '언어', '삭제'], false),
  deva: spaced(['फ़ाइल', 'खोलें', 'सहेजें', 'बंद', 'सेटिंग्स', 'विंडो', 'खाता', 'पासवर्ड', 'उपयोगकर्ता', 'संदेश', 'फ़ोल्डर', 'खोज', 'डाउनलोड', 'अद्यतन', 'भाषा', 'हटाएँ'], false),
  th: unspaced(['ไฟล์', 'เปิด', 'บันทึก', 'ปิด', 'การตั้งค่า', 'หน้าต่าง', 'บัญชี', 'รหัสผ่าน', 'ผู้ใช้', 'ข้อความ', 'โฟลเดอร์', 'ค้นหา', 'ดาวน์โหลด', 'อัปเดต', 'ภาษา', 'ลบ']),
  ka: spaced(['ფაილი', 'გახსნა', 'შენახვა', 'დახურვა', 'პარამეტრები', 'ფანჯარა', 'ანგარიში', 'პაროლი', 'მომხმარებელი', 'შეტყობინება', 'საქაღალდე', 'ძიება', 'ჩამოტვირთვა', 'განახლება', 'ენა', 'წაშლა'], false),
  hy: spaced(['ֆայլ', 'բացել', 'պահպանել', 'փակել', 'կարգավորումներ', 'պատուհան', 'հաշիվ', 'գաղտնաբառ', 'օգտատեր', 'հաղորդագրություն', 'թղթապանակ', 'որոնում', 'ներբեռնել', 'թարմացում', 'լեզու', 'ջնջել']),
  bn: spaced(['ফাইল', 'খুলুন', 'সংরক্ষণ', 'বন্ধ', 'সেটিংস', 'উইন্ডো', 'অ্যাকাউন্ট', 'পাসওয়ার্ড', 'ব্যবহারকারী', 'বার্তা', 'ফোল্ডার', 'অনুসন্ধান', 'ডাউনলোড', 'হালনাগাদ', 'ভাষা', 'মুছুন'], false),
  ta: spaced(['கோப்பு', 'திற', 'சேமி', 'மூடு', 'அமைப்புகள்', 'சாளரம்', 'கணக்கு', 'கடவுச்சொல்', 'பயனர்', 'செய்தி', 'கோப்புறை', 'தேடல்', 'பதிவிறக்கம்', 'புதுப்பிப்பு', 'மொழி', 'நீக்கு'], false),
};
